// Which built-in recipe the launch wizard preselects, from the goal's words and what is known about the project,
// with the reason in words for the pick's detail line. Pure: the facts are gathered elsewhere
// (src/workspace/projectFacts.ts) and may arrive after the goal, so every fact is optional.
//
// The rules, first match wins. The goal's words come first where they clearly say what is wanted; the project's
// facts only lean a vague goal, and otherwise colour the reason:
//  1. the goal names TODO/FIXME comments                     -> todo-sweep
//  2. the goal is about tests failing / passing / being red  -> fix-failing-tests
//  3. the goal asks for a change (fix/add/implement/...)     -> organization
//     (also politely, "Can you add ...?": a question only in form)
//  4. the goal is a question (what/why/how..., or ends "?")  -> research
//  5. a vague goal, and tests are known to fail              -> fix-failing-tests
//  6. anything else                                          -> research
// TODO comments alone never pick todo-sweep: a project with TODOs is the common case, not a request to sweep them.

export interface ProjectFacts {
  /** The command the project's tests run with (`npm test` when package.json has a real test script). */
  readonly testCommand?: string;
  /** How many tests fail under testCommand, when it was run. */
  readonly failingTests?: number;
  /** TODO/FIXME comments in the files at HEAD. */
  readonly todoComments?: number;
}

export interface RecipeSuggestion {
  readonly recipe: "research" | "organization" | "fix-failing-tests" | "todo-sweep";
  readonly reason: string;
}

const todoWords = /\b(?:todos?|fixmes?)\b/i;
const testWords = /\b(?:tests?|specs?|test suite|mocha|jest|vitest|pytest|unit tests?|ci)\b/i;
const failWords = /\b(?:fail(?:s|ing|ed|ures?)?|broken|break(?:s|ing)?|red|pass(?:es|ing)?|green|flaky)\b/i;
const questionStart =
  /^(?:what|why|how|where|which|who|when|whose|is|are|does|do|did|can|could|should|would|will|explain|find out|investigate)\b/i;
const changeVerbs =
  /^(?:(?:(?:can|could|would|will) you\s+)?(?:please\s+)?)(?:fix|add|implement|refactor|remove|delete|rename|update|upgrade|write|make|create|build|migrate|port|replace|clean(?: up)?|change|convert|extract|introduce|support|improve|optimi[sz]e|speed up|move|split|merge|document|repair|handle)\b/i;

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function failingText(n: number, command: string | undefined): string {
  const where = command === undefined ? "" : ` in ${command}`;
  return `${plural(n, "test fails", "tests fail")}${where}`;
}

function todoReason(facts: ProjectFacts): string {
  const found =
    facts.todoComments === undefined
      ? ""
      : facts.todoComments === 0
        ? " (none found at HEAD yet)"
        : ` (${plural(facts.todoComments, "comment", "comments")} at HEAD)`;
  return `The goal names TODO/FIXME comments${found}: each becomes a task.`;
}

function testReason(facts: ProjectFacts): string {
  const { failingTests: n, testCommand: command } = facts;
  if (n !== undefined && n > 0) return `${failingText(n, command)}: each failing test becomes a task.`;
  if (n === 0) return `The goal is about failing tests (${command ?? "the test command"} passes now).`;
  if (command !== undefined) return `The goal is about failing tests; the project tests with ${command}.`;
  return "The goal is about failing tests (no test script found: the recipe runs npm test).";
}

/** The recipe the wizard preselects for `goal` and what is known of the project. */
export function suggestRecipe(goal: string, facts: ProjectFacts = {}): RecipeSuggestion {
  const text = goal.trim().replace(/\s+/g, " ");
  const failing = facts.failingTests ?? 0;
  if (todoWords.test(text)) return { recipe: "todo-sweep", reason: todoReason(facts) };
  if (testWords.test(text) && failWords.test(text)) return { recipe: "fix-failing-tests", reason: testReason(facts) };
  if (changeVerbs.test(text)) {
    const aside =
      failing > 0 ? ` (${failingText(failing, facts.testCommand)}: fix-failing-tests starts from them)` : "";
    return { recipe: "organization", reason: `The goal asks for a change: workers take it in parts${aside}.` };
  }
  if (text.endsWith("?") || questionStart.test(text))
    return { recipe: "research", reason: "The goal is a question: researchers explore it, a synthesist answers." };
  if (failing > 0) return { recipe: "fix-failing-tests", reason: testReason(facts) };
  return { recipe: "research", reason: "No clear signal in the goal: research explores and reports." };
}
