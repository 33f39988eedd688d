// The built-in swarms. They are plain data checked by the same schema as a user's recipe
// (test/unit/core/recipes.test.ts parses each one), so a built-in can never be looser than a user's file.
import type { RecipeInput } from "../protocol/recipe";
import { routerToolNames } from "../protocol/triggers";

const readTools = ["list_dir", "read_file", "search", "grep_board", "post_finding", "send_message"];
/** What a coding worker may call: read, claim, change, test, commit and merge. */
export const codeTools = [
  ...readTools,
  "claim",
  "release",
  "write_file",
  "edit_file",
  "run_command",
  "git_status",
  "git_diff",
  "commit",
  "merge_progress",
];

/**
 * The working roles of the built-ins may ask the person (ask_user: a notification in VS Code, a line in the CLI,
 * no answer in time = decide alone); the synthesist fans in at the end and does not. `codeTools` stays without it:
 * the eval recipe and the tests' recipes run with nobody to ask.
 */
const askTools = ["ask_user"];
const workerTools = [...codeTools, ...askTools];

/** Researchers divide the question by claims (an angle is a task id naming it) and read past the repository. */
const researchTools = [...readTools, "claim", "release", "roster", "fetch_url", "web_search", ...askTools];

const minute = 60_000;

export const builtinRecipeInputs: Readonly<Record<string, RecipeInput>> = {
  research: {
    name: "research",
    description: "Researchers explore the question on private pads; a synthesist fans in and writes the report.",
    roles: [
      {
        name: "researcher",
        count: 4,
        tools: researchTools,
        instructions:
          "Investigate one angle of the goal. Read the roster, then claim your angle as a task id naming it " +
          '(scope {"taskId": "angle: <a few words>"}) so nobody repeats it. Post FACTs with file:line refs or the ' +
          "page's URL; keep OBSERVED for what you have not checked. Read pages with fetch_url (web_search when the " +
          "user configured a search endpoint).",
      },
      {
        name: "synthesist",
        count: 1,
        tools: readTools,
        instructions:
          "When the researchers are done or time is up, read every pad and write one report: agreements, disagreements, open questions.",
      },
    ],
    topology: {
      kind: "dag",
      stages: [
        { name: "explore", roles: ["researcher"] },
        { name: "report", roles: ["synthesist"], after: ["explore"] },
      ],
    },
    visibility: "private-pads",
    synthesist: "synthesist",
    budgets: { wallClockMs: 20 * minute, tokensPerAgent: 8192, steps: 60 },
    taskSources: ["goal"],
  },
  organization: {
    name: "organization",
    description:
      "Workers claim sub-tasks of a coding goal, share findings, verify and merge into the integration branch.",
    roles: [
      {
        name: "worker",
        count: 4,
        tools: workerTools,
        instructions:
          "Claim one sub-task, change only what your claim covers, verify with the tests, then merge. Post a PATCH_SUMMARY.",
      },
      {
        name: "synthesist",
        count: 1,
        tools: readTools,
        instructions:
          "When the workers are done or time is up, summarise what was merged, what failed and what is left.",
      },
    ],
    topology: {
      kind: "dag",
      stages: [
        { name: "work", roles: ["worker"] },
        { name: "summary", roles: ["synthesist"], after: ["work"] },
      ],
    },
    visibility: "shared",
    synthesist: "synthesist",
    budgets: { wallClockMs: 30 * minute, tokensPerAgent: 16384, steps: 120 },
    taskSources: ["goal"],
    merge: true,
  },
  "fix-failing-tests": {
    name: "fix-failing-tests",
    description:
      "Each failing test becomes a task; fixers claim one, fix it on their branch and merge when the test passes.",
    roles: [
      {
        name: "fixer",
        count: 3,
        tools: workerTools,
        instructions:
          "Claim one failing test. Find the cause, fix the code (not the test, unless the test is wrong), rerun it, merge.",
      },
    ],
    topology: { kind: "fanout" },
    visibility: "shared",
    budgets: { wallClockMs: 30 * minute, tokensPerAgent: 16384, steps: 120 },
    taskSources: ["test-failures"],
    testCommand: "npm test",
    merge: true,
  },
  "todo-sweep": {
    name: "todo-sweep",
    description: "Each TODO/FIXME comment becomes a task; sweepers claim one, resolve it or explain why not.",
    roles: [
      {
        name: "sweeper",
        count: 3,
        tools: workerTools,
        instructions:
          "Claim one TODO or FIXME. Resolve it and remove the comment, or post a FAIL saying why it cannot be done now.",
      },
    ],
    topology: { kind: "fanout" },
    visibility: "shared",
    budgets: { wallClockMs: 30 * minute, tokensPerAgent: 12288, steps: 80 },
    taskSources: ["todo-comments"],
    merge: true,
  },
};

export const builtinRecipeNames = Object.keys(builtinRecipeInputs);

/**
 * The standing swarm of `swarmboard watch` (not among the launchable built-ins: it runs only as a standing swarm).
 * The router's tools only dispatch (src/worker/agent/tools/routerTools.ts); each worker owns one task. The wall clock
 * is how long it watches unless stopped first; `--budget-ms` changes it.
 */
/** What a standing swarm watches for when no goal is given. */
export const defaultWatchGoal = "Watch the workspace and act on the triggers that arrive.";

export const watchRecipeInput: RecipeInput = {
  name: "watch",
  description: "A standing swarm: a router that only dispatches triggers, and workers that each own one task.",
  roles: [
    {
      name: "router",
      count: 1,
      tools: routerToolNames,
      instructions:
        "Decide every trigger that reaches you: assign real work to a new worker, forward what concerns a running " +
        "agent, reply to a person's question, hold what needs more to go on, drop what needs no work (say why).",
    },
    {
      name: "worker",
      count: 3,
      tools: workerTools,
      instructions:
        "You own one task. Claim it by its id, change only what it needs, verify with the tests, merge, post a " +
        "PATCH_SUMMARY, then finish. If it cannot be done, post a FAIL saying why and finish.",
    },
  ],
  topology: {
    kind: "dag",
    stages: [
      { name: "route", roles: ["router"] },
      { name: "work", roles: ["worker"] },
    ],
  },
  visibility: "shared",
  budgets: { wallClockMs: 24 * 60 * minute, tokensPerAgent: 16384, steps: 120 },
  taskSources: ["goal"],
  merge: true,
};
