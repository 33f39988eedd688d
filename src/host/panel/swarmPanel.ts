// One Swarmboard panel (a webview) and its side of the message channel. Every message from the page is
// parsed with `webviewToHostSchema`; one that fails is rejected and logged, never acted on. Nothing is
// posted before the page says `ready`, since messages posted earlier are silently lost.
import * as vscode from "vscode";
import { DisposableBase } from "../../core/disposable";
import {
  webviewToHostSchema,
  type HostToWebview,
  type PanelState,
  type WebviewToHost,
} from "../../protocol/webviewMessages";
import { panelViewType } from "../../protocol/panelRestore";
import type { HostLog } from "../hostLog";
import { createNonce, renderPanelHtml } from "./panelHtml";
import { formatZodIssues } from "../../protocol/zodIssues";

export type PanelAction = Extract<WebviewToHost, { type: "action" }>["action"];
export type ProbeReply = Extract<WebviewToHost, { type: "probeReply" }>;
/** Requests from the page that carry data (checked again by the controller before acting). */
export type PanelRequest = Extract<
  WebviewToHost,
  { type: "openFinding" | "stopAgent" | "pauseAgent" | "sendMessage" | "addTask" | "answerQuestion" }
>;

const probeTimeoutMs = 15_000;

/** A new panel tab (a restored one is handed to the serializer by VS Code instead). */
export function createPanelTab(): vscode.WebviewPanel {
  return vscode.window.createWebviewPanel(panelViewType, "Swarmboard", vscode.ViewColumn.One, {
    enableScripts: true,
    retainContextWhenHidden: false,
  });
}

export class SwarmPanel extends DisposableBase {
  readonly panel: vscode.WebviewPanel;
  private ready = false;
  private latestState: PanelState;
  private readonly probes = new Map<string, (reply: ProbeReply) => void>();
  private readonly disposeEmitter = this.register(new vscode.EventEmitter<void>());
  readonly onDidDispose = this.disposeEmitter.event;
  private readonly readyEmitter = this.register(new vscode.EventEmitter<void>());
  /** Fires when the page has loaded and answered the handshake. */
  readonly onDidBecomeReady = this.readyEmitter.event;

  /** `panel`: a new tab (createPanelTab) or one VS Code restored after a reload; this object owns it from here. */
  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly log: HostLog,
    initialState: PanelState,
    private readonly onAction: (action: PanelAction) => void,
    private readonly onRequest: (request: PanelRequest) => void = () => undefined,
  ) {
    super();
    this.latestState = initialState;
    const webviewRoot = vscode.Uri.joinPath(extensionUri, "dist", "webview");
    // Set here for a restored tab too: only the built webview folder, so the page can load nothing else of the
    // extension or the workspace.
    panel.webview.options = { enableScripts: true, localResourceRoots: [webviewRoot] };
    this.panel = this.register(panel);
    panel.iconPath = vscode.Uri.joinPath(extensionUri, "media", "swarmboard.svg");
    this.register(panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)));
    this.register(panel.onDidDispose(() => this.dispose()));
    // A hidden webview is torn down and reloaded when shown again; it will say `ready` again.
    this.register(
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.ready = false;
      }),
    );
    panel.webview.html = renderPanelHtml({
      cspSource: panel.webview.cspSource,
      nonce: createNonce(),
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot, "main.js")).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot, "main.css")).toString(),
      initialState,
    });
  }

  get isReady(): boolean {
    return this.ready;
  }

  reveal(): void {
    this.panel.reveal(vscode.ViewColumn.One);
  }

  /** Shows a new state; before the handshake it is kept and sent on `ready`. */
  setState(state: PanelState): void {
    this.latestState = state;
    if (this.ready) this.post({ type: "state", state });
  }

  /** Asks the page what it shows; resolves with its (schema-checked) answer. */
  probe(nonce: string): Promise<ProbeReply> {
    return new Promise<ProbeReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.probes.delete(nonce);
        reject(
          new Error(
            `The Swarmboard panel did not answer probe ${nonce} within ${probeTimeoutMs} ms (ready: ${this.ready}).`,
          ),
        );
      }, probeTimeoutMs);
      this.probes.set(nonce, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      this.post({ type: "probe", nonce, reply: "valid" });
    });
  }

  /** Scrolls the page to an agent's lane and focuses it. */
  focusLane(agentId: string): void {
    this.post({ type: "focusLane", agentId });
  }

  /** Asks the page to answer with a reply that fails its schema, to exercise the rejection path. */
  requestMalformedReply(nonce: string): void {
    this.post({ type: "probe", nonce, reply: "malformed" });
  }

  /** Posts a value without checking it (tests use this to send the page a message that fails its schema). */
  postUnchecked(message: unknown): Thenable<boolean> {
    return this.panel.webview.postMessage(message);
  }

  private post(message: HostToWebview): void {
    if (!this.ready) {
      this.log.warn(`panel: dropped a "${message.type}" message sent before the page was ready`);
      return;
    }
    void this.panel.webview.postMessage(message);
  }

  private receive(raw: unknown): void {
    const parsed = webviewToHostSchema.safeParse(raw);
    if (!parsed.success) {
      const issues = formatZodIssues(parsed.error, "(message)");
      this.log.warn(`panel: rejected a message that failed its schema (${issues}): ${preview(raw)}`);
      return;
    }
    const msg = parsed.data;
    switch (msg.type) {
      case "ready":
        this.ready = true;
        this.log.info("panel: ready");
        this.post({ type: "state", state: this.latestState });
        this.readyEmitter.fire();
        return;
      case "probeReply":
        this.probes.get(msg.nonce)?.(msg);
        this.probes.delete(msg.nonce);
        return;
      case "rejected":
        this.log.warn(`panel: the page rejected a host message: ${msg.reason}`);
        return;
      case "action":
        this.onAction(msg.action);
        return;
      case "openFinding":
      case "stopAgent":
      case "pauseAgent":
      case "sendMessage":
      case "addTask":
      case "answerQuestion":
        this.onRequest(msg);
        return;
    }
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.disposeEmitter.fire();
    super.dispose();
  }
}

function preview(raw: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(raw) ?? String(raw);
  } catch {
    text = String(raw);
  }
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
