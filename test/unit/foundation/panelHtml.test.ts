import assert from "node:assert/strict";
import { buildCsp, createNonce, jsonForScriptElement, renderPanelHtml } from "../../../src/host/panel/panelHtml";
import { initialStateElementId, panelStateSchema, type PanelState } from "../../../src/protocol/webviewMessages";

const cspSource = "https://file+.vscode-resource.vscode-cdn.net";
const state: PanelState = { extensionVersion: "0.1.0", worker: { state: "ready", pid: 7, version: "0.1.0" } };

function render(nonce = createNonce(), initialState: PanelState = state): string {
  return renderPanelHtml({
    cspSource,
    nonce,
    scriptUri: `${cspSource}/ext/dist/webview/main.js`,
    styleUri: `${cspSource}/ext/dist/webview/main.css`,
    initialState,
  });
}

describe("panel CSP and template", () => {
  it("builds a policy with default-src 'none' and the page's nonce, and nothing unsafe", () => {
    const nonce = createNonce();
    const csp = buildCsp(cspSource, nonce);
    const directives = csp.split("; ");
    assert.equal(directives[0], "default-src 'none'");
    assert.ok(directives.includes(`script-src 'nonce-${nonce}'`));
    assert.ok(directives.includes(`style-src ${cspSource}`));
    assert.ok(directives.includes(`img-src ${cspSource} data:`));
    assert.ok(directives.includes(`font-src ${cspSource}`));
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  });

  it("refuses a weak nonce", () => {
    assert.throws(() => buildCsp(cspSource, "abc"), /at least 16 base64 characters/);
    assert.throws(() => buildCsp(cspSource, "' 'unsafe-inline' 'x'"), /base64/);
  });

  it("makes a fresh nonce each time, from enough random bytes", () => {
    const nonces = new Set(Array.from({ length: 100 }, () => createNonce()));
    assert.equal(nonces.size, 100);
    for (const n of nonces) assert.match(n, /^[A-Za-z0-9+/]{24}$/);
  });

  it("puts the policy in the page, and its only executable script is the nonce'd bundle", () => {
    const nonce = createNonce();
    const html = render(nonce);
    assert.ok(html.includes(`<meta http-equiv="Content-Security-Policy" content="${buildCsp(cspSource, nonce)}">`));
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 2);
    const executable = scripts.filter(([, attrs]) => !attrs.includes('type="application/json"'));
    assert.equal(executable.length, 1);
    assert.match(
      executable[0][1],
      new RegExp(`nonce="${nonce.replace(/[+/]/g, "\\$&")}" src="[^"]+/dist/webview/main\\.js"`),
    );
    assert.equal(executable[0][2], "", "no inline code");
    assert.doesNotMatch(html, /\son[a-z]+=/i, "no inline event handlers");
  });

  it("carries the initial state as inert JSON that cannot close its element", () => {
    const hostile: PanelState = {
      extensionVersion: "</script><script>alert(1)</script>",
      worker: { state: "exited", reason: "<b>" },
    };
    const html = render(createNonce(), hostile);
    assert.equal(html.match(/<\/script>/g)?.length, 2, "the state must not add a closing tag");
    const json = new RegExp(`<script type="application/json" id="${initialStateElementId}">(.*?)</script>`).exec(
      html,
    )?.[1];
    assert.ok(json);
    assert.deepEqual(panelStateSchema.parse(JSON.parse(json)), hostile);
    assert.equal(jsonForScriptElement({ a: "<" }), '{"a":"\\u003c"}');
  });
});
