// The tools that end or delegate work: `finish` (everyone), `write_report` (the synthesist) and
// `spawn_subagent` (a worker forks a sub-agent from its own state and waits for its findings, or leaves it in the
// background) and `collect_subagents` (waits for the ones in the background).
import { z } from "zod";
import type { SubagentOutcome } from "./toolContext";
import { defineTool, type CatalogTool } from "./toolDefinition";

export const finishArgs = z.object({
  summary: z.string().min(1).max(2000).describe("what you did and what is left"),
});
export const spawnSubagentArgs = z.object({
  task: z.string().min(1).max(1000).describe("the sub-task, in one or two sentences"),
  wait: z
    .boolean()
    .default(true)
    .describe("false: go on at once; its outcome comes with a later tool result, or call collect_subagents"),
});
export const collectSubagentsArgs = z.object({});
export const writeReportArgs = z.object({
  title: z.string().min(1).max(200),
  body: z.string().min(1).max(20_000).describe("the report in Markdown: what was found, merged, failed and is left"),
});

/** What spawn_subagent needs: a way to run a sub-agent, absent where the depth limit is reached. */
export interface DelegateToolContext {
  readonly spawnSubagent?: (task: string, wait: boolean) => Promise<SubagentOutcome>;
  readonly collectSubagents?: () => Promise<SubagentOutcome[]>;
}

const noDelegation = "sub-agents cannot spawn further sub-agents here (depth limit).";

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
      "Fork a sub-agent from your current state (it knows all you know) for a sub-task; you wait for its " +
      "findings, or with wait false go on while it works. Its findings reach the board under your visibility.",
    args: spawnSubagentArgs,
    run: (ctx: DelegateToolContext, { task, wait }) => {
      if (ctx.spawnSubagent === undefined) throw new Error(noDelegation);
      return ctx.spawnSubagent(task, wait);
    },
    meaning: (child) => ({
      summary: child.running
        ? `sub-agent ${child.agentId} started in the background`
        : `sub-agent ${child.agentId}: ${child.summary}`,
      progress: { finding: child.findings.length > 0 },
    }),
  }),
  defineTool({
    name: "collect_subagents",
    kind: "delegate",
    description: "Wait for your sub-agents started with wait false; returns the outcomes you have not read yet.",
    args: collectSubagentsArgs,
    run: async (ctx: DelegateToolContext) => {
      if (ctx.collectSubagents === undefined) throw new Error(noDelegation);
      return { subagents: await ctx.collectSubagents() };
    },
    meaning: ({ subagents }) => ({
      summary: `collected ${subagents.length} sub-agent(s): ${subagents.map((s) => s.agentId).join(", ") || "none"}`,
      progress: { finding: subagents.some((s) => s.findings.length > 0) },
    }),
  }),
];
