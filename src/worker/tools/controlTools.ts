// The tools that end or delegate work: `finish` (everyone), `write_report` (the synthesist) and
// `spawn_subagent` (a worker forks a sub-agent from its own state and waits for its findings).
import { z } from "zod";
import { defineTool, type CatalogTool, type SubagentOutcome } from "./toolDefinition";

export const finishArgs = z.object({
  summary: z.string().min(1).max(2000).describe("what you did and what is left"),
});
export const spawnSubagentArgs = z.object({
  task: z.string().min(1).max(1000).describe("the sub-task, in one or two sentences"),
});
export const writeReportArgs = z.object({
  title: z.string().min(1).max(200),
  body: z.string().min(1).max(20_000).describe("the report in Markdown: what was found, merged, failed and is left"),
});

/** What spawn_subagent needs: a way to run a sub-agent, absent where the depth limit is reached. */
export interface DelegateToolContext {
  readonly spawnSubagent?: (task: string) => Promise<SubagentOutcome>;
}

export const controlTools: readonly CatalogTool<DelegateToolContext>[] = [
  defineTool({
    name: "finish",
    kind: "control",
    description: "End your work: say what you did and what is left. Your claims are released.",
    args: finishArgs,
    run: async () => ({ finished: true }),
    meaning: (_r, { summary }) => ({ summary: `finished: ${summary}`, loopInputs: ["stop"], finished: summary }),
  }),
  defineTool({
    name: "write_report",
    kind: "control",
    description: "Write the swarm's final report (synthesist only), then you are done.",
    args: writeReportArgs,
    run: async () => ({ written: true }),
    meaning: (_r, { title, body }) => ({
      summary: `report: ${title}`,
      loopInputs: ["stop"],
      finished: "wrote the report",
      report: { title, body },
    }),
  }),
  defineTool({
    name: "spawn_subagent",
    kind: "delegate",
    description:
      "Fork a sub-agent from your current state (it knows all you know) for a sub-task; you wait for its findings.",
    args: spawnSubagentArgs,
    run: (ctx: DelegateToolContext, { task }) => {
      if (ctx.spawnSubagent === undefined)
        throw new Error("sub-agents cannot spawn further sub-agents here (depth limit).");
      return ctx.spawnSubagent(task);
    },
    meaning: (child) => ({
      summary: `sub-agent ${child.agentId}: ${child.summary}`,
      progress: { finding: child.findings.length > 0 },
    }),
  }),
];
