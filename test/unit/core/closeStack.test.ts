// A failed set-up's clean-up (src/core/closeStack.ts): what was opened is closed last first, a failing close does
// not keep the others from closing, and closing twice closes nothing twice.
import { strict as assert } from "assert";
import { CloseStack } from "../../../src/core/closeStack";

describe("the close stack", () => {
  it("closes what was opened in reverse order and hands back each opened value", async () => {
    const closed: string[] = [];
    const stack = new CloseStack();
    const log = stack.push("board log", async (name) => void closed.push(name));
    stack.push("context", async (name) => void closed.push(name));
    assert.equal(log, "board log");
    assert.deepEqual(await stack.closeAll(), []);
    assert.deepEqual(closed, ["context", "board log"]);
    assert.deepEqual(await stack.closeAll(), [], "nothing is left to close");
    assert.deepEqual(closed, ["context", "board log"]);
  });

  it("goes on past a close that fails and reports its error", async () => {
    const closed: string[] = [];
    const stack = new CloseStack();
    stack.push("board log", async (name) => void closed.push(name));
    stack.push("context", async () => {
      throw new Error("dispose failed");
    });
    stack.push("view", async (name) => void closed.push(name));
    const errors = await stack.closeAll();
    assert.deepEqual(closed, ["view", "board log"]);
    assert.deepEqual(
      errors.map((e) => (e as Error).message),
      ["dispose failed"],
    );
  });
});
