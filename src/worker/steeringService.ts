// The worker's side of steering a running swarm: the person's message, pause or resume of one agent, a task
// added, the answer to an agent's question. Each finds the swarm by id and turns a refusal (not running, no such
// agent) into an error the host shows as is.
import { HandlerError } from "../core/rpc/rpcPeer";
import type { ServicePeer } from "../core/rpc/servicePeer";
import type { Disposable } from "../core/disposable";
import { addTaskMethod, answerQuestionMethod, pauseAgentMethod } from "../protocol/steering";
import { messageSwarmMethod } from "../protocol/swarmRpc";
import type { SwarmSession } from "./swarm/swarmSession";

/** Serves the steering methods for the swarms `find` knows; returns their registrations. */
export function serveSteering(peer: ServicePeer, find: (swarmId: string) => SwarmSession | undefined): Disposable[] {
  const session = (swarmId: string): SwarmSession => {
    const found = find(swarmId);
    if (found === undefined) throw new HandlerError("unknown-swarm", `No swarm ${swarmId} runs in this worker.`);
    return found;
  };
  const refused =
    (code: string) =>
    (error: unknown): never => {
      throw new HandlerError(code, (error as Error).message);
    };
  return [
    peer.handle(messageSwarmMethod, async ({ swarmId, to, text }) => {
      const standing = session(swarmId).schedule.triggers;
      // In a standing swarm a message to everyone is a trigger: its router decides who takes it (as on the CLI).
      if (to === "swarm" && standing !== undefined) {
        const taken = await standing.take({ source: "message", text }).catch(refused("message-refused"));
        return { messageId: taken.trigger.id, to, asTrigger: true };
      }
      const sent = await session(swarmId).message(to, text).catch(refused("message-refused"));
      return { messageId: sent.id, to };
    }),
    peer.handle(pauseAgentMethod, ({ swarmId, agentId, paused }) => {
      const steering = session(swarmId).steering;
      try {
        return steering.pauseAgent(agentId, paused);
      } catch (error) {
        return refused("pause-refused")(error);
      }
    }),
    peer.handle(addTaskMethod, async ({ swarmId, text }) => {
      const task = await session(swarmId).steering.addTask(text, Date.now()).catch(refused("task-refused"));
      return { taskId: task.id };
    }),
    peer.handle(answerQuestionMethod, ({ swarmId, questionId, text }) => ({
      known: find(swarmId)?.steering.answer(questionId, text) ?? false,
    })),
  ];
}
