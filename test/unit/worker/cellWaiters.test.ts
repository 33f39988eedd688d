// The cell waiters' rule, as pure logic: paused agents wait for freed cells, and when nobody left can free any
// (every live agent waits here or on its own sub-agents) the one holding the most is told to give back. The real
// swarm that hung on it runs in test/swarm/fullPoolDeadlock.test.ts.
import assert from "node:assert/strict";
import { CellWaiters } from "../../../src/worker/swarm/cellWaiters";
import type { CellWord } from "../../../src/worker/agent/agentRunnerDeps";

/** Collects what each waiter was told, by name, in order. */
function told(): { words: string[]; as: (name: string) => (word: CellWord) => void } {
  const words: string[] = [];
  return { words, as: (name) => (word) => void words.push(`${name}:${word}`) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("cell waiters", function () {
  it("keeps a paused agent waiting while another still runs, and wakes every waiter when cells are freed", async () => {
    const waiters = new CellWaiters(() => 3);
    const { words, as } = told();
    void waiters.wait(() => 100).then(as("a"));
    void waiters.wait(() => 50).then(as("b"));
    await settle();
    assert.deepEqual(words, [], "a third agent still runs: nobody is told to give back");
    waiters.freed();
    await settle();
    assert.deepEqual(words, ["a:freed", "b:freed"]);
    assert.equal(waiters.waitingCount, 0);
  });

  it("tells the waiter holding the most to give back when every live agent waits", async () => {
    const waiters = new CellWaiters(() => 3);
    const { words, as } = told();
    void waiters.wait(() => 200).then(as("a"));
    void waiters.wait(() => 900).then(as("b"));
    void waiters.wait(() => 300).then(as("c"));
    await settle();
    assert.deepEqual(words, ["b:give-back"]);
    assert.equal(waiters.waitingCount, 2, "the others keep waiting for what b frees");
    waiters.freed();
    await settle();
    assert.deepEqual(words, ["b:give-back", "a:freed", "c:freed"]);
  });

  it("reads what each waiter holds when it must choose, not when it began to wait", async () => {
    const waiters = new CellWaiters(() => 2);
    const held = { a: 900, b: 100 };
    const { words, as } = told();
    void waiters.wait(() => held.a).then(as("a"));
    held.a = 10;
    void waiters.wait(() => held.b).then(as("b"));
    await settle();
    assert.deepEqual(words, ["b:give-back"]);
  });

  it("counts a parent waiting on its sub-agents as unable to free cells (the hang seen in CI)", async () => {
    // A parent blocked on its sub-agent (a spawn that waits, collect_subagents, or its end) and that sub-agent
    // paused on the full pool: two live agents, neither can free a cell.
    const waiters = new CellWaiters(() => 2);
    const { words, as } = told();
    let childEnds: () => void = () => undefined;
    const parentWaits = waiters.blockedWhile(new Promise<void>((resolve) => (childEnds = resolve)));
    void waiters.wait(() => 40).then(as("child"));
    await settle();
    assert.deepEqual(words, ["child:give-back"]);
    childEnds();
    await parentWaits;
    // Once the parent runs again it can free cells: a new waiter waits.
    void waiters.wait(() => 40).then(as("child-again"));
    await settle();
    assert.deepEqual(words, ["child:give-back"]);
  });

  it("tells a waiter to give back when a parent becomes blocked after it began to wait", async () => {
    const waiters = new CellWaiters(() => 2);
    const { words, as } = told();
    void waiters.wait(() => 40).then(as("child"));
    await settle();
    assert.deepEqual(words, []);
    void waiters.blockedWhile(new Promise(() => undefined));
    await settle();
    assert.deepEqual(words, ["child:give-back"]);
  });

  it("tells a lone agent at once that it must give back (nobody else could free cells)", async () => {
    const waiters = new CellWaiters(() => 1);
    const { words, as } = told();
    void waiters.wait(() => 5).then(as("alone"));
    await settle();
    assert.deepEqual(words, ["alone:give-back"]);
  });
});
