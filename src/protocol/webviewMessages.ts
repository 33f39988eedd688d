// Host <-> webview messages. The panel is a browser page the host does not trust and that does not
// trust the host: each side parses what it receives with these schemas and rejects what fails them.
// A small discriminated union on `type` (not the RPC envelope): the panel only needs fire-and-forget
// messages plus a ready handshake, and `postMessage` already keeps order.
import { z } from "zod";
import { budgetViewSchema } from "./budgetView";
import { answerTextSchema, taskTextSchema } from "./steering";
import { messageTextSchema } from "./swarmRpc";

/** What the panel shows of the worker process. */
export const workerStatusSchema = z.discriminatedUnion("state", [
  z.object({ state: z.literal("starting") }),
  z.object({ state: z.literal("ready"), pid: z.number().int(), version: z.string() }),
  z.object({ state: z.literal("exited"), reason: z.string() }),
]);
export type WorkerStatus = z.infer<typeof workerStatusSchema>;

/** One line of an agent's lane timeline. */
export const laneItemViewSchema = z.object({
  time: z.number(),
  kind: z.enum(["state", "thought", "call", "result", "finding", "message"]),
  text: z.string(),
  ok: z.boolean().optional(),
});

/** An agent as its lane shows it; `private` is its private KV cells from the last kv-stats. */
export const agentLaneViewSchema = z.object({
  id: z.string(),
  role: z.string(),
  state: z.string(),
  claim: z.string().optional(),
  branch: z.string().optional(),
  tokens: z.number(),
  privateCells: z.number(),
  /** Colour slot (0-15) shared by the lane, its budget segment and its findings. */
  colour: z.number().int().min(0).max(15),
  current: z.string(),
  /** How many lane items the store holds for the agent (the page shows the newest `lane` of them). */
  laneTotal: z.number().int().nonnegative(),
  lane: z.array(laneItemViewSchema),
});
export type AgentLaneView = z.infer<typeof agentLaneViewSchema>;

export const findingViewSchema = z.object({
  id: z.string(),
  kind: z.string(),
  author: z.string(),
  time: z.number(),
  text: z.string(),
  /** The first file:line reference, if any (clicking the finding opens it). */
  path: z.string().optional(),
  line: z.number().int().positive().optional(),
});
export type FindingView = z.infer<typeof findingViewSchema>;

/** One point of the run's usage curve: KV cells in use and aggregate tokens/s at a kv-stats report. */
export const usageSampleSchema = z.object({
  time: z.number(),
  usedCells: z.number(),
  poolCells: z.number(),
  tokensPerSecond: z.number(),
});
export type UsageSample = z.infer<typeof usageSampleSchema>;

/** An agent's open ask_user question, as the panel shows it with its answer box. */
export const questionViewSchema = z.object({
  questionId: z.string(),
  agentId: z.string(),
  question: z.string(),
  time: z.number(),
  timeoutMs: z.number(),
  /** How long is left when the host sent it (the page counts down from its own clock, which may not be the host's). */
  remainingMs: z.number().nonnegative().optional(),
});
export type QuestionView = z.infer<typeof questionViewSchema>;

/** One trigger of a standing swarm as the panel lists it: where it came from and where the fast path sent it. */
export const triggerRowSchema = z.object({
  id: z.string(),
  time: z.number(),
  source: z.string(),
  /** "src/a.ts:3", a test's name, or the text's start. */
  what: z.string(),
  /** "dropped: deny", "to agent-5", "waits for real-3", "router", then the router's decision once made. */
  decision: z.string(),
  /** Where it stands: waiting (for the router), held, routed, dropped, replied. */
  state: z.string(),
  /** The agent that owns its thread, when there is one. */
  owner: z.string().optional(),
});
export type TriggerRow = z.infer<typeof triggerRowSchema>;

export const triggerStreamViewSchema = z.object({
  dropped: z.number(),
  direct: z.number(),
  router: z.number(),
  decisions: z.number(),
  /** Where the kept triggers stand, in one line ("3 arrived · 1 waiting for the router · 2 dropped"). */
  queue: z.string(),
  /** Set while nothing serves the swarm (its router ended): why, and what to do. */
  notServed: z.string().optional(),
  /** The newest triggers, newest last. */
  recent: z.array(triggerRowSchema),
});
export type TriggerStreamView = z.infer<typeof triggerStreamViewSchema>;

export const swarmPanelViewSchema = z.object({
  id: z.string(),
  goal: z.string(),
  recipe: z.string(),
  status: z.string(),
  startedAt: z.number(),
  endedAt: z.number().optional(),
  endReason: z.string().optional(),
  model: z.string().optional(),
  mode: z.string().optional(),
  /** The agent-rules files in the trunk, one line each ("AGENTS.md (1,234 chars)"). */
  rules: z.array(z.string()).optional(),
  /** How agent commands run: in the sandbox, or "no sandbox ..." and why (each command then asks for approval). */
  commands: z.string().optional(),
  agents: z.array(agentLaneViewSchema),
  findings: z.array(findingViewSchema),
  budget: budgetViewSchema.optional(),
  /** The run so far, oldest first (thinned evenly past a cap, so a long run keeps its whole shape). */
  usage: z.array(usageSampleSchema).optional(),
  /** Agents' questions waiting for the person's answer, oldest first. */
  questions: z.array(questionViewSchema).optional(),
  /** A standing swarm's trigger stream (absent for other swarms). */
  triggers: triggerStreamViewSchema.optional(),
  /** A standing swarm's latency per request, one line per trigger source (absent until the router assigns one). */
  latency: z.array(z.object({ kind: z.string(), text: z.string() })).optional(),
  /** Tasks the person added, oldest first, with where each stands on the board (absent when none). */
  addedTasks: z
    .array(
      z.object({
        id: z.string(),
        title: z.string(),
        state: z.enum(["open", "claimed", "finished"]),
        agent: z.string().optional(),
      }),
    )
    .optional(),
});
export type SwarmPanelView = z.infer<typeof swarmPanelViewSchema>;

/** Everything the panel renders; the host sends it whole (coalesced) whenever something changes. */
export const panelStateSchema = z.object({
  extensionVersion: z.string(),
  worker: workerStatusSchema,
  swarm: swarmPanelViewSchema.optional(),
});
export type PanelState = z.infer<typeof panelStateSchema>;

/** Host -> webview. */
export const hostToWebviewSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("state"), state: panelStateSchema }),
  /**
   * A diagnostic probe: the panel answers with what it currently shows, which proves the page is live and
   * rendering. `reply: "malformed"` makes it answer with a reply that fails its schema on purpose, so the
   * host's rejection path can be exercised through the real webview (used by test/host).
   */
  z.object({ type: z.literal("probe"), nonce: z.string().min(1).max(100), reply: z.enum(["valid", "malformed"]) }),
  /** Scrolls to an agent's lane and focuses it (the tree's "Show Lane"). */
  z.object({ type: z.literal("focusLane"), agentId: z.string().min(1).max(200) }),
]);
export type HostToWebview = z.infer<typeof hostToWebviewSchema>;

/** Webview -> host. */
export const webviewToHostSchema = z.discriminatedUnion("type", [
  /** Sent once the page's script runs; the host posts nothing before it (messages sent earlier are lost). */
  z.object({ type: z.literal("ready") }),
  z.object({
    type: z.literal("probeReply"),
    nonce: z.string().min(1).max(100),
    /** The header and worker-status text as rendered in the DOM. */
    rendered: z.object({ title: z.string(), worker: z.string() }),
    /** What the swarm part of the page shows, read back from its DOM (tests compare it with the store). */
    dom: z
      .object({
        laneIds: z.array(z.string()),
        findingTexts: z.array(z.string()),
        /** The budget's numbers as rendered, by field (data-field attributes), parsed back to numbers. */
        budget: z.record(z.string(), z.number()),
        /** <img> elements in the whole document, and <script> elements inside #app. */
        imgElements: z.number().int(),
        scriptElements: z.number().int(),
        /** Whether any injected handler ran (it would set a marker on window). */
        injectedRan: z.boolean(),
        /** The open questions shown, by id, and the message box's recipients (tests compare them with the store). */
        questionIds: z.array(z.string()).optional(),
        recipients: z.array(z.string()).optional(),
        /** The trigger stream's rows as shown: id, owner (data attributes) and text. */
        triggers: z.array(z.object({ id: z.string(), owner: z.string().optional(), text: z.string() })).optional(),
        /** The trigger card's queue line and not-served notice as shown ("" when hidden). */
        triggerSummary: z.object({ queue: z.string(), notServed: z.string() }).optional(),
        /** The added tasks' rows as shown: task id and text. */
        addedTasks: z.array(z.object({ id: z.string(), text: z.string() })).optional(),
      })
      .optional(),
  }),
  /** The panel refused a host message that failed its schema; the host logs it. */
  z.object({ type: z.literal("rejected"), reason: z.string().max(2000) }),
  /** A user action from the panel; a closed set, never a free command id (no `executeCommand(msg.x)`). */
  z.object({ type: z.literal("action"), action: z.enum(["pingWorker", "launchSwarm", "stopSwarm"]) }),
  /** Open a finding's file at its line; the host checks the path stays inside the swarm's workspace. */
  z.object({
    type: z.literal("openFinding"),
    path: z.string().min(1).max(4096),
    line: z.number().int().positive().optional(),
  }),
  /** Stop one agent (its lane's button). */
  z.object({ type: z.literal("stopAgent"), agentId: z.string().min(1).max(200) }),
  /** Pause or resume one agent (its lane's button). */
  z.object({ type: z.literal("pauseAgent"), agentId: z.string().min(1).max(200), paused: z.boolean() }),
  /** The message box: to "swarm" or one agent's id. */
  z.object({ type: z.literal("sendMessage"), to: z.string().min(1).max(200), text: messageTextSchema }),
  /** The message box's "Add as task". */
  z.object({ type: z.literal("addTask"), text: taskTextSchema }),
  /** A question's answer box. */
  z.object({ type: z.literal("answerQuestion"), questionId: z.string().min(1).max(200), text: answerTextSchema }),
]);
export type WebviewToHost = z.infer<typeof webviewToHostSchema>;

/** The id of the `<script type="application/json">` element that carries the initial state into the page. */
export const initialStateElementId = "swarmboard-initial-state";
