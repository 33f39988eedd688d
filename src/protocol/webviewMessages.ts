// Host <-> webview messages. The panel is a browser page the host does not trust and that does not
// trust the host: each side parses what it receives with these schemas and rejects what fails them.
// A small discriminated union on `type` (not the RPC envelope): the panel only needs fire-and-forget
// messages plus a ready handshake, and `postMessage` already keeps order.
import { z } from "zod";

/** What the panel shows of the worker process. */
export const workerStatusSchema = z.discriminatedUnion("state", [
  z.object({ state: z.literal("starting") }),
  z.object({ state: z.literal("ready"), pid: z.number().int(), version: z.string() }),
  z.object({ state: z.literal("exited"), reason: z.string() }),
]);
export type WorkerStatus = z.infer<typeof workerStatusSchema>;

/** Everything the panel renders; the host sends it whole whenever something changes. */
export const panelStateSchema = z.object({
  extensionVersion: z.string(),
  worker: workerStatusSchema,
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
  }),
  /** The panel refused a host message that failed its schema; the host logs it. */
  z.object({ type: z.literal("rejected"), reason: z.string().max(2000) }),
  /** A user action from the panel; a closed set, never a free command id (no `executeCommand(msg.x)`). */
  z.object({ type: z.literal("action"), action: z.enum(["pingWorker", "launchSwarm"]) }),
]);
export type WebviewToHost = z.infer<typeof webviewToHostSchema>;

/** The id of the `<script type="application/json">` element that carries the initial state into the page. */
export const initialStateElementId = "swarmboard-initial-state";
