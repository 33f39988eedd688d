// Reading a recipe (built-in or a user's `.swarmboard/recipes/*.json`) into a checked Recipe.
// Every problem names the file, the field and what was expected, so the user can fix it without guessing.
// The schema checks shapes; the checks below it check what refers to what (roles, stages, synthesist).
import type { z } from "zod";
import { recipeSchema, type Recipe, type Stage } from "../protocol/recipe";
import { parseHostPattern } from "./hostAllowlist";

export interface RecipeProblem {
  readonly file: string;
  /** Dotted field path such as `roles[1].count`, or `(file)` for the file as a whole. */
  readonly field: string;
  /** What was expected there. */
  readonly expected: string;
  /** What was found, as short JSON, when there was something. */
  readonly got?: string;
}

export type RecipeParseResult =
  { readonly ok: true; readonly recipe: Recipe } | { readonly ok: false; readonly problems: readonly RecipeProblem[] };

export interface RecipeParseOptions {
  /** Tool names that exist; when given, a role naming another tool is a problem. */
  readonly knownTools?: ReadonlySet<string>;
}

export function formatField(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(recipe)";
  return path.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join("");
}

/** One line a person can act on: `file: field "roles[0].count": expected ..., got "two"`. */
export function formatRecipeProblem(p: RecipeProblem): string {
  return `${p.file}: field "${p.field}": ${p.expected}${p.got === undefined ? "" : `, got ${p.got}`}`;
}

export class RecipeError extends Error {
  constructor(readonly problems: readonly RecipeProblem[]) {
    super(problems.map(formatRecipeProblem).join("\n"));
    this.name = "RecipeError";
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function shortJson(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value);
  return text.length > 60 ? text.slice(0, 57) + "..." : text;
}

export function problemsFromZod(file: string, input: unknown, error: z.ZodError): RecipeProblem[] {
  return error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      const field = formatField([...issue.path, issue.keys[0]]);
      return { file, field, expected: `no such field here (unknown: ${issue.keys.join(", ")}); check the spelling` };
    }
    const got =
      issue.code === "invalid_type" && valueAt(input, issue.path) === undefined
        ? "nothing (the field is missing)"
        : shortJson(valueAt(input, issue.path));
    return { file, field: formatField(issue.path), expected: issue.message, ...(got === undefined ? {} : { got }) };
  });
}

/** Parses recipe JSON text; `file` is how the source is named in problems. */
export function parseRecipeText(file: string, text: string, options: RecipeParseOptions = {}): RecipeParseResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, problems: [{ file, field: "(file)", expected: `valid JSON (${(e as Error).message})` }] };
  }
  return parseRecipeValue(file, json, options);
}

export function parseRecipeValue(file: string, value: unknown, options: RecipeParseOptions = {}): RecipeParseResult {
  const parsed = recipeSchema.safeParse(value);
  if (!parsed.success) return { ok: false, problems: problemsFromZod(file, value, parsed.error) };
  const problems = checkReferences(file, parsed.data, options);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, recipe: parsed.data };
}

function checkReferences(file: string, recipe: Recipe, options: RecipeParseOptions): RecipeProblem[] {
  const problems: RecipeProblem[] = [];
  const add = (field: string, expected: string, got?: unknown) =>
    problems.push({ file, field, expected, ...(got === undefined ? {} : { got: shortJson(got) as string }) });
  const roles = new Set<string>();
  recipe.roles.forEach((role, i) => {
    if (roles.has(role.name)) add(`roles[${i}].name`, "a role name used only once", role.name);
    roles.add(role.name);
    role.tools.forEach((tool, t) => {
      if (options.knownTools !== undefined && !options.knownTools.has(tool)) {
        add(`roles[${i}].tools[${t}]`, `one of the tools ${[...options.knownTools].sort().join(", ")}`, tool);
      }
    });
  });
  const roleList = [...roles].join(", ");
  const topology = recipe.topology;
  if (topology.kind === "chain") {
    topology.order.forEach((r, i) => {
      if (!roles.has(r)) add(`topology.order[${i}]`, `a role of this recipe (${roleList})`, r);
    });
  } else if (topology.kind === "dag") {
    checkStages(topology.stages, roles, roleList, add);
  }
  if (recipe.synthesist !== undefined && !roles.has(recipe.synthesist))
    add("synthesist", `a role of this recipe (${roleList})`, recipe.synthesist);
  if (recipe.visibility === "private-pads" && recipe.synthesist === undefined) {
    add("synthesist", 'a synthesist role: with "private-pads" findings only leave the pads through it');
  }
  if (recipe.taskSources.includes("test-failures") && recipe.testCommand === undefined) {
    add("testCommand", 'a test command: the "test-failures" task source needs one to run');
  }
  // Under review only the integrator merges: without a role that may, approved work would never land.
  if (recipe.review !== undefined && !recipe.roles.some((r) => r.tools.includes("integrate_branch"))) {
    add("review", 'a role with the tool "integrate_branch" (the integrator): under review only it merges');
  }
  recipe.webHosts?.forEach((pattern, i) => {
    try {
      parseHostPattern(pattern);
    } catch (e) {
      add(`webHosts[${i}]`, (e as Error).message, pattern);
    }
  });
  return problems;
}

type AddProblem = (field: string, expected: string, got?: unknown) => void;

function checkStages(stages: readonly Stage[], roles: Set<string>, roleList: string, add: AddProblem): void {
  const names = new Map<string, number>();
  stages.forEach((stage, i) => {
    if (names.has(stage.name)) add(`topology.stages[${i}].name`, "a stage name used only once", stage.name);
    names.set(stage.name, i);
    stage.roles.forEach((r, j) => {
      if (!roles.has(r)) add(`topology.stages[${i}].roles[${j}]`, `a role of this recipe (${roleList})`, r);
    });
  });
  stages.forEach((stage, i) => {
    stage.after.forEach((a, j) => {
      if (!names.has(a))
        add(`topology.stages[${i}].after[${j}]`, `a stage of this recipe (${[...names.keys()].join(", ")})`, a);
    });
  });
  const cycle = findCycle(stages);
  if (cycle !== undefined)
    add(`topology.stages[${names.get(cycle[0])}].after`, `stages without a cycle (found ${cycle.join(" -> ")})`);
}

/** A cycle among stages' `after` links, as stage names, or undefined. */
function findCycle(stages: ReadonlyArray<{ name: string; after: readonly string[] }>): string[] | undefined {
  const after = new Map(stages.map((s) => [s.name, s.after]));
  const state = new Map<string, "visiting" | "done">();
  const path: string[] = [];
  const visit = (name: string): string[] | undefined => {
    if (state.get(name) === "done" || !after.has(name)) return undefined;
    if (state.get(name) === "visiting") return [...path.slice(path.indexOf(name)), name];
    state.set(name, "visiting");
    path.push(name);
    for (const next of after.get(name) ?? []) {
      const found = visit(next);
      if (found !== undefined) return found;
    }
    path.pop();
    state.set(name, "done");
    return undefined;
  };
  for (const stage of stages) {
    const found = visit(stage.name);
    if (found !== undefined) return found;
  }
  return undefined;
}
