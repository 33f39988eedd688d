// The page's handle on its host. `acquireVsCodeApi` is injected by VS Code into every webview and may be
// called only once; sending goes through `send`, which only accepts messages of the protocol's type.
import type { PanelRestoreState } from "../src/protocol/panelRestore";
import type { WebviewToHost } from "../src/protocol/webviewMessages";

interface VsCodeApi {
  postMessage(message: unknown): void;
  setState(state: PanelRestoreState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api: VsCodeApi = acquireVsCodeApi();

export function send(message: WebviewToHost): void {
  api.postMessage(message);
}

/** Sends a value as is, without its type: only for the deliberately malformed probe reply. */
export function sendUnchecked(message: unknown): void {
  api.postMessage(message);
}

let remembered: string | undefined;

/** Keeps the shown swarm's id with the webview, so a reloaded window's panel comes back showing it. */
export function rememberShownSwarm(swarmId: string | undefined): void {
  if (swarmId === undefined || swarmId === remembered) return;
  remembered = swarmId;
  api.setState({ swarmId });
}
