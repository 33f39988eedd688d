// Opens the engine a swarm runs on (port/engine.ts has the interface). Local: the model loaded with its weights
// into this process (localEngine.ts). Remote: the model loaded vocabulary-only, the server checked before any
// agent starts (remote/engineHealth.ts), and contexts that send token ids to it (remote/remoteEngine.ts). Both
// load their model through the runtime's owner, which keeps it for the next swarm.
import type { EngineSettings } from "../protocol/engine";
import { LocalEngine } from "./local/localEngine";
import type { SwarmEngine } from "./port/engine";
import type { LoadSwarmModelOptions } from "./port/engineShapes";
import { EngineHttp } from "./remote/engineHttp";
import { checkEngine } from "./remote/engineHealth";
import { RemoteEngine } from "./remote/remoteEngine";
import type { RuntimeOwner } from "./runtimeOwner";

export async function openEngine(
  settings: EngineSettings,
  load: LoadSwarmModelOptions,
  owner: RuntimeOwner,
): Promise<SwarmEngine> {
  if (settings.kind === "local") return new LocalEngine(await owner.loadModel(load), owner);
  const model = await owner.loadModel({ ...load, vocabOnly: true });
  const http = new EngineHttp({
    url: settings.url,
    timeoutMs: settings.timeoutMs,
    busyRetries: settings.busyRetries,
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
  });
  return new RemoteEngine(model, http, await checkEngine(http, model, settings));
}
