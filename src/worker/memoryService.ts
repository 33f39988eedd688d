// The repository's memory across swarms, for people: listed (each memory judged against the user's HEAD: valid or
// stale, with the files that changed), searched (ranked by BM25, the same ranking a trunk's choice uses) and
// deleted by id. The CLI calls these directly; the host through the worker's RPC methods registered here.
import { rankMemories } from "../core/memorySelection";
import type { Disposable } from "../core/disposable";
import type { ServicePeer } from "../core/rpc/servicePeer";
import type { JudgedMemory } from "../protocol/memory";
import { deleteMemoriesMethod, listMemoriesMethod } from "../protocol/memoryRpc";
import { judgeMemories } from "../workspace/memoryBlobs";
import { headCommit } from "../workspace/repoFacts";
import { RepositoryMemory } from "../workspace/repositoryMemory";

export interface MemoryListing {
  readonly memories: JudgedMemory[];
  readonly commit: string;
  readonly file: string;
  readonly problems: string[];
}

/** Every memory judged at HEAD; with a query, only those sharing words with it, best first. */
export async function listMemories(workspace: string, query?: string): Promise<MemoryListing> {
  const store = await RepositoryMemory.forRepository(workspace);
  const { memories, problems } = await store.read();
  const commit = await headCommit(store.topLevel);
  const judged = await judgeMemories(store.topLevel, commit, memories);
  const byId = new Map(judged.map((j) => [j.memory.id, j]));
  const ordered =
    query === undefined
      ? [...judged].sort(
          (a, b) => b.memory.rememberedAt - a.memory.rememberedAt || b.memory.postedAt - a.memory.postedAt,
        )
      : rankMemories(memories, query).map((r) => byId.get(r.memory.id) as JudgedMemory);
  return { memories: ordered, commit, file: store.file, problems };
}

export async function deleteMemories(workspace: string, ids: readonly string[]) {
  return (await RepositoryMemory.forRepository(workspace)).delete(ids);
}

/** The worker's memory methods for the host. */
export function serveMemory(peer: ServicePeer): Disposable[] {
  return [
    peer.handle(listMemoriesMethod, ({ workspace, query }) => listMemories(workspace, query)),
    peer.handle(deleteMemoriesMethod, ({ workspace, ids }) => deleteMemories(workspace, ids)),
  ];
}
