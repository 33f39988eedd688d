// The Swarms tree's "Memories" node and its children: what earlier swarms verified on the window's repositories,
// each valid or stale at HEAD, with its provenance in the tooltip. Pure projections of the memory listing.
import type { FolderMemory } from "../memory/repositoryMemories";
import type { SwarmsNode } from "./swarmsNodes";

export function memoriesNode(memories: readonly FolderMemory[]): SwarmsNode {
  const stale = memories.filter((m) => m.judged.status === "stale").length;
  return {
    id: "memories",
    kind: "memories",
    label: "Memories",
    description:
      memories.length === 0 ? "none yet" : `${memories.length - stale} valid${stale > 0 ? ` · ${stale} stale` : ""}`,
    tooltip:
      "Findings earlier swarms verified on this repository (FACTs, merged patch summaries), kept with the git blobs " +
      "of their files. A new swarm's trunk carries the relevant valid ones; a memory whose file changed is stale.",
    icon: "database",
    contextValue: "memories",
    collapsible: memories.length > 0,
    folded: true,
  };
}

export function memoryNode({ workspace, judged }: FolderMemory): SwarmsNode {
  const { memory, status, changed } = judged;
  const files = memory.files.map((f) => `${f.path}@${f.blob.slice(0, 7)}`).join(", ");
  const text = memory.text.replace(/\s+/g, " ").trim();
  return {
    id: `memory:${workspace}:${memory.id}`,
    kind: "memory",
    label: text.length > 120 ? `${text.slice(0, 119)}…` : text,
    description: [memory.kind, status === "valid" ? "valid" : "stale", memory.files[0]?.path ?? ""]
      .filter((p) => p !== "")
      .join(" · "),
    tooltip:
      `${memory.id}: ${memory.kind} by ${memory.agent} in swarm ${memory.swarmId}\n${text}\nfiles: ${files}` +
      (status === "stale" ? `\nstale: ${changed.join(", ")} changed since` : ""),
    icon: status === "valid" ? "bookmark" : "history",
    contextValue: `memory-${status}`,
    memoryId: memory.id,
    workspace,
  };
}
