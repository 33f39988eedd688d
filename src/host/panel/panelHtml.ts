// The panel's HTML template and its Content Security Policy. Pure functions (no `vscode` import) so the
// policy can be unit-tested in plain Node. The page holds no inline script at all: the one script is the
// bundled dist/webview/main.js, allowed by its nonce, and the initial state travels as inert JSON data.
import { randomBytes } from "node:crypto";
import { initialStateElementId, type PanelState } from "../../protocol/webviewMessages";

/** A fresh nonce per page load, from the OS's CSPRNG (a predictable nonce would defeat the policy). */
export function createNonce(): string {
  return randomBytes(18).toString("base64");
}

/**
 * The panel's CSP: nothing by default; styles, images and fonts only from the extension's webview origin;
 * scripts only with this page's nonce. No 'unsafe-inline', no 'unsafe-eval', no network (connect-src is unset,
 * so default-src 'none' applies).
 */
export function buildCsp(cspSource: string, nonce: string): string {
  if (!/^[A-Za-z0-9+/=]{16,}$/.test(nonce)) {
    throw new Error(`buildCsp: the nonce must be at least 16 base64 characters, got "${nonce}".`);
  }
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join("; ");
}

export interface PanelHtmlInput {
  /** `webview.cspSource`. */
  cspSource: string;
  nonce: string;
  /** `webview.asWebviewUri(...)` of dist/webview/main.js, as a string. */
  scriptUri: string;
  /** `webview.asWebviewUri(...)` of dist/webview/main.css, as a string. */
  styleUri: string;
  initialState: PanelState;
}

export function renderPanelHtml(input: PanelHtmlInput): string {
  const csp = buildCsp(input.cspSource, input.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(input.styleUri)}">
<title>Swarmboard</title>
</head>
<body>
<div id="app"></div>
<script type="application/json" id="${initialStateElementId}">${jsonForScriptElement(input.initialState)}</script>
<script nonce="${escapeAttribute(input.nonce)}" src="${escapeAttribute(input.scriptUri)}"></script>
</body>
</html>`;
}

/** JSON that cannot close its <script> element early: `<` is written as its JSON escape. */
export function jsonForScriptElement(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
