// The trigger log's format: only the last line may be torn by a crash (it is dropped, the rest kept); a bad line
// anywhere else is corruption, named with its line number and what to do.
import assert from "node:assert/strict";
import { decodeTriggerLog, encodeTriggerLine } from "../../../src/core/triggerLogCodec";
import type { TriggerLogLine } from "../../../src/protocol/triggers";

const line: TriggerLogLine = {
  kind: "trigger",
  trigger: { id: "a", source: "message", fingerprint: "f", time: 1, text: "hello" },
  route: { route: "router" },
};

describe("core: the trigger log's format", () => {
  it("keeps whole lines, drops a torn last one, and refuses a bad line in the middle", () => {
    const whole = encodeTriggerLine(line) + encodeTriggerLine({ ...line, trigger: { ...line.trigger, id: "b" } });
    assert.deepEqual(decodeTriggerLog(whole, "t.jsonl").lines.length, 2);
    const torn = decodeTriggerLog(whole + '{"kind":"trig', "t.jsonl");
    assert.equal(torn.keptText, whole);
    assert.match(torn.torn?.reason ?? "", /torn/);
    const badLast = decodeTriggerLog(whole + '{"kind":"nope"}\n', "t.jsonl");
    assert.equal(badLast.lines.length, 2, "a bad last line with its end is torn too");
    assert.throws(
      () => decodeTriggerLog(encodeTriggerLine(line) + "not json\n" + encodeTriggerLine(line), "t.jsonl"),
      /t\.jsonl: line 2 is not a valid trigger log line .*move it aside/,
    );
  });
});
