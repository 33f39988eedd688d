// What the worker needs of a model beside an engine, in one named door: the chat format its agents speak
// (rendering, call grammars), pulling a model file, whether a model's template can call tools, and the GPU
// setting as the runtime's choice. Outside src/runtime only this file, the engine port (port/), the factory
// (engines.ts) and the owner (runtimeOwner.ts) may be imported (eslint-rules/runtimeSeal.mjs), so the files behind
// them can move or split without touching the worker.
export { AgentChatFormat } from "./agentChatFormat";
export { gpuChoiceOf } from "./gpuBackend";
export { pullModel, type PullProgress } from "./modelPull";
export { toolCallingRefusal } from "./toolCallingSupport";
