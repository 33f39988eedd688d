// Which engine a launch asks the worker for, from the settings: local (the default) or a remote serving engine at
// swarmboard.engineUrl. A remote engine's API key lives in VS Code's SecretStorage (set by the Set Engine API Key
// command), never in settings.json; it travels to the worker in the swarm/start message only.
import * as vscode from "vscode";
import type { EngineSettings } from "../../protocol/engine";
import { remoteEngineSchema } from "../../protocol/engine";
import type { Settings } from "../../protocol/settings";

export const engineKeySecret = "swarmboard.engineApiKey";

export type EngineChoice = { readonly engine?: EngineSettings } | { readonly refusal: string };

export async function engineChoice(settings: Settings, secrets: vscode.SecretStorage): Promise<EngineChoice> {
  if (settings.engine === "local") return { engine: { kind: "local" } };
  if (settings.engineUrl === "") {
    return {
      refusal:
        "swarmboard.engine is remote but swarmboard.engineUrl is empty: set it to the server's URL " +
        "(e.g. http://127.0.0.1:8080 for llama-server), or set swarmboard.engine back to local.",
    };
  }
  const apiKey = await secrets.get(engineKeySecret);
  const parsed = remoteEngineSchema.safeParse({
    kind: "remote",
    url: settings.engineUrl,
    model: settings.engineModel,
    dialect: settings.engineDialect,
    ...(apiKey ? { apiKey } : {}),
  });
  if (!parsed.success)
    return { refusal: `swarmboard.engineUrl ${settings.engineUrl}: ${parsed.error.issues[0]?.message}` };
  return { engine: parsed.data };
}

/** The Set Engine API Key command: stores the key (an empty answer deletes it); says which, never the key. */
export async function setEngineApiKey(secrets: vscode.SecretStorage): Promise<"stored" | "deleted" | "cancelled"> {
  const key = await vscode.window.showInputBox({
    title: "Swarmboard: API key of the remote engine",
    prompt:
      "Kept in VS Code's secret storage, sent only to swarmboard.engineUrl. Leave empty to delete the stored key.",
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) return "cancelled";
  if (key === "") {
    await secrets.delete(engineKeySecret);
    return "deleted";
  }
  await secrets.store(engineKeySecret, key);
  return "stored";
}
