// An event as an agent's parts write it: the swarm stamps its id and the time when it goes out. Its own leaf, so
// the parts below the runner (questions, compaction, readback) name it without importing the runner.
import type { SwarmEvent } from "../../protocol/swarmEvents";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type AgentEventDraft = DistributiveOmit<SwarmEvent, "swarmId" | "time">;
