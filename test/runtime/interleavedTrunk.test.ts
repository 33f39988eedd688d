// A swarm joining a pool while another's agents generate (stories260K, shared cells): the joining swarm's trunk
// (a few thousand tokens it shares with no live trunk) is decoded in chunks that ride in the running agents'
// steps, so they keep producing tokens through its prefill, one dispatch a step; its trunk ends as if decoded
// alone. And a tenant with one agent beside a tenant with many gets a token every step.
import assert from "node:assert/strict";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { createSwarmContext, SwarmContext } from "../../src/runtime/local/swarmContext";
import type { SwarmAgent } from "../../src/runtime/local/swarmAgent";
import { loadStoriesModel, storyTrunk } from "./runtimeTestModels";

type Tokens = SwarmContext["trunkTokens"];
const cells = 8192;
const greedy = { maxTokens: 10, sampling: { temperature: 0 } } as const;

function assertLedgerMatchesLlama(swarm: SwarmContext): void {
  for (const check of swarm.checkPositions())
    assert.equal(check.llamaMaxPosition + 1, check.ledgerCells, `${check.id}: ledger and llama.cpp disagree`);
}

/** A first agent's greedy tokens from `trunk` on a pool of its own. */
async function aloneGreedy(model: SwarmModel, trunk: Tokens): Promise<number[]> {
  const alone = await createSwarmContext(model, { maxAgents: 2, kvCells: cells, threads: 1 });
  try {
    await alone.appendToTrunk(trunk);
    const agent = await alone.fork("agent-1", { expectedTail: 16 });
    return (await agent.generate(greedy)).tokens;
  } finally {
    await alone.dispose();
  }
}

/** When each of an agent's tokens came, and how much of the joining trunk was decoded then. */
interface Arrival {
  readonly at: number;
  readonly joinedDecoded: number;
}

/** Generates `forced` (tokens fed back whatever is sampled, so no end of story stops it) until `signal`. */
function generateUntil(agent: SwarmAgent, forced: Tokens, signal: AbortSignal, onToken: () => void) {
  const request = { maxTokens: forced.length, forcedTokens: forced, signal, onText: onToken };
  return agent.generate({ ...request, sampling: { temperature: 0 } });
}

describe("a trunk decoded in chunks between running agents' steps (stories260K, shared cells)", () => {
  let model: SwarmModel;
  let first: SwarmContext;
  let second: SwarmContext | undefined;

  before(async () => {
    model = await loadStoriesModel();
  });

  beforeEach(async () => {
    first = await createSwarmContext(model, { maxAgents: 4, kvCells: cells, threads: 1, swarms: 2 });
    await first.appendToTrunk(storyTrunk);
  });

  afterEach(async () => {
    await second?.dispose();
    await first.dispose();
    second = undefined;
  });

  it("keeps the first swarm's agents generating, one dispatch a step, through the second's prefill", async () => {
    const forced = model.tokenize(" The cat sat on the mat and looked at the moon.".repeat(60)).slice(0, 1500);
    const joiningTrunk = model
      .tokenize(" A dog named Max lived by the sea. Every day he ran along the sand with his red kite.".repeat(100))
      .slice(0, 3000);
    second = new SwarmContext(first.host, { maxAgents: 2, kvCells: cells, threads: 1 });
    const joining = second;
    const arrivals: Arrival[] = [];
    const stop = new AbortController();
    let started: () => void = () => undefined;
    const generating = new Promise<void>((resolve) => (started = resolve));
    const onToken = () => {
      arrivals.push({ at: performance.now(), joinedDecoded: joining.decodedTrunk().length });
      if (arrivals.length === 10) started();
    };
    const agents = [await first.fork("agent-1", { expectedTail: 16 }), await first.fork("agent-2")];
    const running = [
      generateUntil(agents[0]!, forced, stop.signal, onToken),
      generateUntil(agents[1]!, forced, stop.signal, () => undefined),
    ];
    await generating;

    const before = { at: performance.now(), dispatches: first.stats().dispatches };
    const reuse = await joining.shareTrunk(joiningTrunk);
    const after = { at: performance.now(), dispatches: first.stats().dispatches };
    stop.abort();
    const results = await Promise.all(running);

    const wanted = joining.trunkTokens;
    assert.equal(reuse.decodedTokens, wanted.length - 1 - reuse.reusedTokens);
    assert.ok(reuse.decodedTokens >= 2900, `decoded ${reuse.decodedTokens}: a trunk the first swarm does not share`);
    const batch = first.host.context.batchSize;
    const chunks = Math.ceil(reuse.decodedTokens / batch);
    // Each chunk rides in a step of the first swarm's two agents: no dispatch of the trunk alone.
    const dispatches = after.dispatches - before.dispatches;
    assert.ok(dispatches <= chunks + 2, `${dispatches} dispatches for a trunk of ${chunks} batches' worth`);

    const during = arrivals.filter((arrival) => arrival.at > before.at && arrival.at < after.at);
    const betweenChunks = during.filter(
      (arrival) => arrival.joinedDecoded > reuse.reusedTokens && arrival.joinedDecoded < wanted.length - 1,
    );
    assert.ok(betweenChunks.length >= chunks - 2, `${betweenChunks.length} tokens between the trunk's chunks`);
    assert.ok(
      during.length >= chunks - 1,
      `${during.length} tokens of the first swarm during a ${chunks}-chunk prefill`,
    );
    const gaps = during.slice(1).map((arrival, i) => arrival.at - during[i]!.at);
    const prefillMs = after.at - before.at;
    assert.ok(Math.max(...gaps) < prefillMs / 2, `longest gap ${Math.max(...gaps)} ms of a ${prefillMs} ms prefill`);
    assert.deepEqual(
      results.map((result) => result.stopReason),
      ["aborted", "aborted"],
    );

    assertLedgerMatchesLlama(first);
    assertLedgerMatchesLlama(joining);
    const agent = await joining.fork("agent-1", { expectedTail: 16 });
    const text = await agent.generate(greedy);
    assert.deepEqual(text.tokens, await aloneGreedy(model, joiningTrunk), "the joining trunk as decoded alone");
    assertLedgerMatchesLlama(joining);
  });

  it("gives a tenant with one agent a token every step while a tenant with four reads long prompts", async () => {
    second = new SwarmContext(first.host, { maxAgents: 2, kvCells: cells, threads: 1 });
    await second.shareTrunk(" A dog named Max lived by the sea.");
    const many: SwarmAgent[] = [];
    for (let i = 1; i <= 4; i++) many.push(await first.fork(`agent-${i}`, { expectedTail: 16 }));
    const router = await second.fork("router", { expectedTail: 16 });
    const story = model.tokenize(" The cat sat on the mat and looked at the moon.".repeat(4)).slice(0, 30);
    const before = first.stats().dispatches;
    // The four read 1,000-token prompts on their first step (eight batches' worth); the router reads one token.
    const prompt = model.tokenize(" The cat sat on the mat and looked at the moon.".repeat(60)).slice(0, 1000);
    const batch = first.host.context.batchSize;
    const routerAt: number[] = [];
    const manyAt: number[] = [];
    const results = await Promise.all([
      ...many.map((agent, i) =>
        agent.generate({
          ...greedy,
          forcedTokens: story,
          prompt,
          onText: (_text, tokens) => (i === 0 && tokens === 1 ? manyAt.push(first.stats().dispatches - before) : 0),
        }),
      ),
      router.generate({
        ...greedy,
        maxTokens: 30,
        forcedTokens: story,
        onText: () => routerAt.push(first.stats().dispatches - before),
      }),
    ]);
    assert.deepEqual(
      results.map((result) => result.tokens.length),
      [10, 10, 10, 10, 30],
    );
    const promptDispatches = manyAt[0]!;
    assert.ok(promptDispatches >= Math.ceil((4 * prompt.length) / batch), `prompts read in ${promptDispatches}`);
    // While the four read, the router steps with every dispatch: never skipped for more than one.
    const whileReading = routerAt.filter((at) => at < promptDispatches);
    assert.ok(whileReading.length >= promptDispatches - 2, `router tokens while they read: ${routerAt.join(", ")}`);
    const gaps = routerAt.slice(1).map((at, i) => at - routerAt[i]!);
    assert.ok(Math.max(...gaps) <= 2, `dispatches between the router's tokens: ${gaps.join(", ")}`);
    assertLedgerMatchesLlama(first);
    assertLedgerMatchesLlama(second);
  });
});
