// The runtime's owner for this process (src/runtime/runtimeOwner.ts): the Llama, the models and the context kept
// between swarms, all disposed in order by `processRuntime.dispose()`. One per process, whether the worker or the
// CLI runs the swarms. It sits on the swarm floor because that floor is the lowest that loads a model.
import { RuntimeOwner } from "../../runtime/runtimeOwner";

export const processRuntime = new RuntimeOwner();
