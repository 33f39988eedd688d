// Past swarms of a repository, as the user sees them after a reload: each registry record with its outcome
// (an unfinished record whose process is gone was interrupted), its branches measured by git against the user's
// branch, and its findings counted from its board. Reading only: nothing is created or repaired here.
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { decodeLog } from "../core/boardLogCodec";
import type { PastSwarm } from "../protocol/swarmHistoryRpc";
import type { SwarmRecord } from "../protocol/swarmRecord";
import { integrationBranch } from "./branchNames";
import { branchStates } from "./branchStates";
import { ownerLiveness, type SwarmRegistry } from "./swarmRegistry";

const findingKinds = new Set(["OBSERVED", "FACT", "FAIL", "PATCH_SUMMARY"]);

/** The outcome of a record now: ended, running (its owner lives, or runs elsewhere) or interrupted. */
export function outcomeOf(record: SwarmRecord): Pick<PastSwarm, "outcome" | "reason"> {
  if (record.ended) return { outcome: record.ended.outcome, reason: record.ended.reason };
  const liveness = ownerLiveness(record.owner);
  if (liveness === "dead")
    return {
      outcome: "interrupted",
      reason: `its process (pid ${record.owner.pid}) ended before the swarm did; resume it or clean it up`,
    };
  return {
    outcome: "running",
    reason:
      liveness === "alive"
        ? `running in process ${record.owner.pid}`
        : `started on ${record.owner.host} (pid ${record.owner.pid}); this machine cannot tell whether it still runs`,
  };
}

async function findingsIn(stateDir: string): Promise<number> {
  const file = path.join(stateDir, "board.jsonl");
  const text = await readFile(file, "utf8").catch(() => "");
  return decodeLog(text, file).entries.filter((e) => findingKinds.has(e.kind)).length;
}

async function pastSwarm(topLevel: string, record: SwarmRecord): Promise<PastSwarm> {
  const stateDirExists = await stat(record.stateDir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  return {
    swarmId: record.swarmId,
    goal: record.goal,
    recipe: record.recipe,
    ...outcomeOf(record),
    launchedBy: record.launchedBy,
    createdAt: record.createdAt,
    ...(record.ended ? { endedAt: record.ended.at } : {}),
    ...(record.cleanedUpAt !== undefined ? { cleanedUpAt: record.cleanedUpAt } : {}),
    stateDir: record.stateDir,
    stateDirExists,
    ...(record.ended?.reportPath ? { reportPath: record.ended.reportPath } : {}),
    integrationBranch: integrationBranch(record.swarmId),
    branches: await branchStates(topLevel, record.swarmId, record.baseSha),
    findings: stateDirExists ? await findingsIn(record.stateDir) : 0,
  };
}

/** Every registered swarm of the repository, newest first, with the registry files that could not be read. */
export async function listPastSwarms(registry: SwarmRegistry): Promise<{ swarms: PastSwarm[]; problems: string[] }> {
  const { records, problems } = await registry.read();
  const swarms: PastSwarm[] = [];
  for (const record of records) {
    try {
      swarms.push(await pastSwarm(registry.topLevel, record));
    } catch (error) {
      problems.push(`swarm ${record.swarmId}: ${(error as Error).message}`);
    }
  }
  swarms.sort((a, b) => b.createdAt - a.createdAt);
  return { swarms, problems };
}
