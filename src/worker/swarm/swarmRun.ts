// One set-up swarm (swarmSetup.ts makes it, the session owns and closes it) and the narrow views its consumers
// take: each file that works with a running swarm names the few parts it reads, so none depends on the set-up
// itself (and the set-up on none of them). Types only: this is the leaf every swarm/ and standing/ file may import.
import type { SwarmBoard } from "../../core/swarmBoard";
import type { AgentRule } from "../../protocol/agentRules";
import type { Task } from "../../protocol/tasks";
import type { AgentChatFormat } from "../../runtime/modelServices";
import type { EngineContext, SwarmEngine } from "../../runtime/port/engine";
import type { SwarmModel, TrunkReuse } from "../../runtime/port/engineShapes";
import type { CommandPolicy } from "../../workspace/commandPolicy";
import type { DependencyFolders } from "../../workspace/dependencyFolders";
import type { MergeVerifier } from "../../workspace/mergeVerifier";
import type { SharedReadView } from "../../workspace/sharedReadView";
import type { SwarmRepository } from "../../workspace/swarmRepository";
import type { WebAccess } from "../agent/web/webAccess";
import type { SeatPlan } from "./seatPlan";
import type { SwarmDisk } from "./swarmDisk";
import type { SwarmRunOptions } from "./swarmRunOptions";

export interface SwarmRun {
  readonly options: SwarmRunOptions;
  readonly board: SwarmBoard;
  readonly repo: SwarmRepository;
  /** The one command policy of the swarm: the test run and every agent's commands are judged by it. */
  readonly policy: CommandPolicy;
  /** The user's installed dependency folders that every worktree sees read-only. */
  readonly dependencies: DependencyFolders;
  /** Runs the recipe's tests before a merge is published; absent when the recipe names no test command. */
  readonly verifier?: MergeVerifier;
  /** The one read-only view of the integration commit that agents read until they have a worktree of their own. */
  readonly readView: SharedReadView;
  /** What the swarm's worktrees will take on disk at most (the launch says it). */
  readonly disk: SwarmDisk;
  /** Paths no agent may touch (.git, .vscode, the hooks paths): read once at launch for every workspace. */
  readonly protectedPaths: readonly string[];
  readonly plan: SeatPlan;
  readonly tasks: readonly Task[];
  /** The engine that computes the swarm's tokens (local by default, or a remote serving engine). */
  readonly engine: SwarmEngine;
  readonly model: SwarmModel;
  readonly context: EngineContext;
  readonly format: AgentChatFormat;
  /** Private cells each agent may use before it compacts: an equal share of what the trunk leaves of the pool. */
  readonly tailBudget: number;
  /** The repository's agent-rules files the trunk carries (empty when turned off or none). */
  readonly rules: readonly AgentRule[];
  /** Set when the context was kept from the last swarm: how much of the trunk was reused and how much decoded. */
  readonly trunkReuse?: TrunkReuse;
  /** The swarm's way to the web: allowlist, approvals, caps, the page cache. */
  readonly web: WebAccess;
  /** Closes the board's log and keeps the context with its trunk (keptTrunk.ts); the model stays loaded. */
  close(): Promise<void>;
}

/** What one agent's loop runs on: the shared context and its format, its share of cells, the board, the web. */
export type SeatGround = Pick<SwarmRun, "options" | "board" | "context" | "format" | "tailBudget" | "web">;

/** Where agents work: the repository, the shared read view, and what every worktree is given. */
export type SwarmWorkplace = Pick<
  SwarmRun,
  "repo" | "readView" | "policy" | "dependencies" | "verifier" | "disk" | "plan" | "protectedPaths"
>;

/** What the seats of a running swarm fork, seat and run their agents with. */
export type SeatsGround = SeatGround & SwarmWorkplace;

/** What a schedule (declared stages, a standing swarm) reads of the swarm it runs the seats of. */
export type ScheduleGround = Pick<SwarmRun, "options" | "board" | "plan" | "tasks" | "tailBudget">;

/** What a test run on the person's checkout needs (a standing swarm's polled commits and saves). */
export type CheckoutTestGround = Pick<SwarmRun, "options" | "repo" | "policy" | "dependencies">;
