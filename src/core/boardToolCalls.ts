// Runs the organisation's tools (post_finding, grep_board, claim, release, send_message) for an agent
// against its swarm's board. Arguments are parsed with the tools' zod schemas; every outcome, refusals and
// bad arguments included, comes back as text for the agent's context (errors as data, never a throw).
import { z } from "zod";
import { boardToolArgSchemas, boardToolDescriptions, type BoardToolName } from "../protocol/boardTools";
import type { ToolDescription } from "./trunkPrompt";
import { describeScope } from "./scopes";
import { renderBoardHits } from "./grepBoard";
import type { SwarmBoard } from "./swarmBoard";

export interface BoardToolResult {
  readonly ok: boolean;
  /** What the agent reads. */
  readonly text: string;
  /** True when the call posted a finding: progress for the watchdog (`StepReport.progress.finding`). */
  readonly newFinding: boolean;
}

export function isBoardTool(name: string): name is BoardToolName {
  return Object.prototype.hasOwnProperty.call(boardToolArgSchemas, name);
}

/** The organisation's tools as the trunk lists them (name, description, JSON schema of the arguments). */
export function boardToolList(): ToolDescription[] {
  return (Object.keys(boardToolArgSchemas) as BoardToolName[]).map((name) => ({
    name,
    description: boardToolDescriptions[name],
    parameters: z.toJSONSchema(boardToolArgSchemas[name], { io: "input" }),
  }));
}

const fail = (text: string): BoardToolResult => ({ ok: false, text, newFinding: false });

export async function runBoardTool(swarm: SwarmBoard, agent: string, name: BoardToolName, rawArgs: unknown, now: number): Promise<BoardToolResult> {
  const parsed = boardToolArgSchemas[name].safeParse(rawArgs);
  if (!parsed.success) {
    return fail(`${name}: bad arguments (${parsed.error.issues.map((i) => `${i.path.join(".") || "(args)"}: ${i.message}`).join("; ")}).`);
  }
  try {
    return await dispatch(swarm, agent, name, parsed.data, now);
  } catch (e) {
    return fail(`${name} failed: ${(e as Error).message}`);
  }
}

async function dispatch(swarm: SwarmBoard, agent: string, name: BoardToolName, args: unknown, now: number): Promise<BoardToolResult> {
  switch (name) {
    case "post_finding": {
      const a = boardToolArgSchemas.post_finding.parse(args);
      const entry = await swarm.postFinding({ author: agent, kind: a.kind, text: a.text, time: now, scope: a.scope ?? { paths: [], globs: [] }, refs: a.refs });
      return { ok: true, text: `Posted ${entry.kind} ${entry.id}.`, newFinding: true };
    }
    case "grep_board":
      return { ok: true, text: renderBoardHits(swarm.grep(agent, boardToolArgSchemas.grep_board.parse(args))), newFinding: false };
    case "claim": {
      const a = boardToolArgSchemas.claim.parse(args);
      const outcome = await swarm.claim(agent, a.scope, a.text, now);
      return outcome.granted
        ? { ok: true, text: `Claim ${outcome.lease.claimId} granted on ${describeScope(outcome.lease.scope)} until ${outcome.lease.leaseUntil}; it renews while you make progress.`, newFinding: false }
        : fail(`Claim refused: ${outcome.reason}. Pick other work or message ${outcome.holders.join(", ") || "the swarm"}.`);
    }
    case "release": {
      const a = boardToolArgSchemas.release.parse(args);
      const lease = swarm.claims.active(now).find((l) => l.claimId === a.claimId);
      if (lease === undefined || lease.agent !== agent) return fail(`You hold no live claim ${a.claimId}.`);
      await swarm.release(a.claimId, a.reason, now);
      return { ok: true, text: `Released ${a.claimId}.`, newFinding: false };
    }
    case "send_message": {
      const a = boardToolArgSchemas.send_message.parse(args);
      const m = await swarm.send(agent, a.to, a.text, now);
      return { ok: true, text: `Message #${m.seq} sent to ${a.to}.`, newFinding: false };
    }
  }
}
