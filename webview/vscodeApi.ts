// The page's handle on its host. `acquireVsCodeApi` is injected by VS Code into every webview and may be
// called only once; sending goes through `send`, which only accepts messages of the protocol's type.
import type { WebviewToHost } from "../src/protocol/webviewMessages";

interface VsCodeApi {
  postMessage(message: unknown): void;
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
