// The panel's script. It reads its initial state from inert JSON in the page (no inline script), renders,
// says `ready`, and then handles host messages, each parsed with its schema; one that fails is refused and
// reported back to the host instead of being acted on.
import {
  hostToWebviewSchema,
  initialStateElementId,
  panelStateSchema,
  type HostToWebview,
  type PanelState,
} from "../src/protocol/webviewMessages";
import { mountPanel, updatePanel, type PanelDom } from "./render";
import { send, sendUnchecked } from "./vscodeApi";

function readInitialState(): PanelState | undefined {
  const text = document.getElementById(initialStateElementId)?.textContent ?? "";
  try {
    const parsed = panelStateSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    send({ type: "rejected", reason: `initial state failed its schema: ${parsed.error.message}` });
  } catch (err) {
    send({ type: "rejected", reason: `initial state is not JSON: ${String(err)}` });
  }
  return undefined;
}

function handle(dom: PanelDom, msg: HostToWebview): void {
  switch (msg.type) {
    case "state":
      updatePanel(dom, msg.state);
      return;
    case "probe":
      if (msg.reply === "malformed") {
        // Deliberately fails webviewToHostSchema (rendered must be an object): the host must reject it.
        sendUnchecked({ type: "probeReply", nonce: msg.nonce, rendered: "not-an-object" });
        return;
      }
      send({
        type: "probeReply",
        nonce: msg.nonce,
        rendered: { title: dom.title.textContent ?? "", worker: dom.worker.textContent ?? "" },
      });
      return;
  }
}

function main(): void {
  const root = document.getElementById("app");
  if (!root) throw new Error("Swarmboard panel: the #app element is missing from the page.");
  const dom = mountPanel(root, (action) => send({ type: "action", action }));
  const initial = readInitialState();
  if (initial) updatePanel(dom, initial);

  window.addEventListener("message", (event: MessageEvent<unknown>) => {
    const parsed = hostToWebviewSchema.safeParse(event.data);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(message)"}: ${i.message}`).join("; ");
      send({ type: "rejected", reason: `host message failed its schema (${issues})`.slice(0, 2000) });
      return;
    }
    handle(dom, parsed.data);
  });
  send({ type: "ready" });
}

main();
