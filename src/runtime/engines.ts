// Opens the engine a swarm runs on (engine.ts has the interface). Local: the model loaded with its weights into
// this process, contexts created from it. Remote: the model loaded vocabulary-only (to render prompts with its
// own chat wrapper and count tokens), the server checked before any agent starts (remote/engineHealth.ts), and
// contexts that send token ids to it.
import type { EngineSettings } from "../protocol/engine";
import type { EngineContext } from "./engine";
import { loadSwarmModel, type LoadSwarmModelOptions, type SwarmModel } from "./loadModel";
import { EngineHttp } from "./remote/engineHttp";
import { checkEngine, type EngineHealth } from "./remote/engineHealth";
import { RemoteContext } from "./remote/remoteContext";
import { createSwarmContext } from "./swarmContext";
import type { SwarmContextOptions } from "./swarmContextOptions";

export { modelLoadCount } from "./loadModel";

export interface SwarmEngine {
  readonly kind: EngineSettings["kind"];
  readonly model: SwarmModel;
  /** The remote engine's checked facts (absent for the local one). */
  readonly remote?: Omit<EngineHealth, "dialect"> & { readonly url: string; readonly dialect: string };
  createContext(options: SwarmContextOptions): Promise<EngineContext>;
}

export async function openEngine(settings: EngineSettings, load: LoadSwarmModelOptions): Promise<SwarmEngine> {
  if (settings.kind === "local") {
    const model = await loadSwarmModel(load);
    return { kind: "local", model, createContext: (options) => createSwarmContext(model, options) };
  }
  const model = await loadSwarmModel({ ...load, vocabOnly: true });
  const http = new EngineHttp({
    url: settings.url,
    timeoutMs: settings.timeoutMs,
    busyRetries: settings.busyRetries,
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
  });
  const health = await checkEngine(http, model, settings);
  return {
    kind: "remote",
    model,
    remote: { ...health, url: http.url, dialect: health.dialect.name },
    createContext: async (options) =>
      new RemoteContext({
        model,
        http,
        dialect: health.dialect,
        engineModel: health.engineModel,
        slotCells: health.slotCells,
        maxAgents: options.maxAgents,
      }),
  };
}
