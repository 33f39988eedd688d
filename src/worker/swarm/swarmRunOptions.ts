// What a caller gives to start a swarm (the worker from a swarm/start request, the CLI from its flags): the goal, the
// recipe, the model and workspace, and the knobs of the runtime and the organisation. setUpSwarm turns it into a
// SwarmRun. How the seats are run (declared stages, standing) is not an option: the launcher gives the session its
// seat schedule (seatSchedule.ts).
import type { EngineSettings } from "../../protocol/engine";
import type { SwarmEngine } from "../../runtime/port/engine";
import type { Recipe } from "../../protocol/recipe";
import type { GpuSetting, KvCacheType } from "../../protocol/runtime";
import type { ScriptedCall, TurnScript } from "../../protocol/turnScript";
import type { WebSettings } from "../../protocol/webTools";
import type { CommandApprover } from "../../workspace/approvals";
import type { PolicyRules } from "../../workspace/commandPolicy";

export interface SwarmRunOptions {
  readonly swarmId: string;
  readonly goal: string;
  readonly recipe: Recipe;
  /** Agents for the working roles (split over them); default: the recipe's counts. */
  readonly agents?: number;
  readonly modelPath: string;
  readonly workspace: string;
  readonly stateDir: string;
  readonly threads: number;
  /** A cap on the KV pool (--kv-cells, swarmboard.kvCellsBudget); without it the pool is sized from free memory. */
  readonly kvCells?: number;
  /**
   * The most KV cells this swarm may take of a pool it shares with other swarms on the same model and settings
   * (--pool-share, swarmboard.poolShareCells, swarm/start; shown in its budget); without it, a fair share
   * (src/core/poolShares.ts).
   */
  readonly poolShareCells?: number;
  /** How many swarms a pool this swarm creates is sized for (--pool-swarms, swarmboard.poolSwarms); default 1. */
  readonly poolSwarms?: number;
  /** Most memory the KV pool may take ("6GB": --memory-budget, swarmboard.memoryBudget); caps its cells. */
  readonly memoryBudget?: string;
  /** Sparse writers' worktrees above this many MiB per checkout (--sparse-above-mib, the setting); wins over the recipe's. */
  readonly sparseCheckoutAboveMiB?: number;
  /** Where the model runs (default "auto": the machine's GPU when a build for it loads, else the CPU). */
  readonly gpu?: GpuSetting;
  /** The KV cache's element type (default f16). */
  readonly kvCacheType?: KvCacheType;
  /** Which engine computes the tokens (default local: this process's runtime). */
  readonly engine?: EngineSettings;
  /** That engine already opened and checked when the swarm was asked for (engineCheck.ts); the setup uses it. */
  readonly checkedEngine?: SwarmEngine;
  readonly budgetMs?: number;
  readonly script?: TurnScript;
  readonly approver: CommandApprover;
  readonly policy: PolicyRules;
  readonly temperature?: number;
  /** Most tokens an agent writes before each call (--thinking-tokens); default the recipe's budgets.thinkingTokens. */
  readonly thinkingTokens?: number;
  /** The swarm's sampling seed; each seat samples with this plus its seat number. */
  readonly seed?: number;
  /**
   * Continue an interrupted swarm from its state dir: its board (every acknowledged entry) and branches are
   * kept, new agents fork from a fresh trunk that includes the board's state.
   */
  readonly resume?: boolean;
  /** Put the repository's agent-rules files (AGENTS.md and the like) into the trunk; default true. */
  readonly agentRules?: boolean;
  /** How agents reach the web (fetch_url, web_search); default: the settings' defaults (no host, no search). */
  readonly web?: WebSettings;
  /**
   * Most private cells an agent holds before it is compacted by re-fork; default (and most): an equal share of
   * what the trunk leaves of the pool.
   */
  readonly tailCells?: number;
  /** Seconds an agent's ask_user question waits for the person (0: nobody answers); default 300. */
  readonly askUserTimeoutSeconds?: number;
}

/** An agent's scripted calls: its own, else the synthesist's for a synthesist; none left ([]) in a scripted run. */
export function scriptFor(options: SwarmRunOptions, id: string, isSynthesist: boolean): ScriptedCall[] | undefined {
  const agents = options.script?.agents;
  if (agents === undefined) return undefined;
  return agents[id] ?? (isSynthesist ? agents["synthesist"] : undefined) ?? [];
}
