// The command policy: allow, ask or deny, decided on the parsed command, every sub-command checked, and the
// strictest answer wins. It fails closed: a command that does not parse is asked about, never allowed, and
// `allow` needs an explicit allow rule matched by literal words only. Built in, whatever the user's rules:
// eval/source/exec and privilege tools are denied, piping into a shell or interpreter is denied, bash
// parameter transformations (`${x@P}`) and indirection (`${!x}`) are denied, a shell given a command string
// built from a substitution is denied, a redirect into a protected path is denied; other redirects, command
// and process substitutions, environment assignments and background jobs are asked about. Every path a command
// names is judged on what the shell will expand it to (policyPaths.ts): secrets are denied, outside paths asked.
import os from "node:os";
import { DEFAULT_PROTECTED } from "./pathContainment";
import { basename, matchesDeny, matchesPrefix, mentionsProtected } from "./policyMatching";
import { judgeWord, type PolicyScope } from "./policyPaths";
import { ALWAYS_DENY, BUILTIN_DENY, DANGEROUS_ENV, INTERPRETERS, SHELLS, WRAPPERS } from "./policyRuleSets";
import { parseShell, type SimpleCommand, type Word } from "./shellParse";

export { BUILTIN_DENY };

export type Decision = "allow" | "ask" | "deny";

export interface PolicyRules {
  /** Command prefixes that run without asking, e.g. "git status", "npm test". */
  readonly allow: readonly string[];
  /** Command prefixes that always need approval. */
  readonly ask: readonly string[];
  /** Commands refused: "rm -rf" matches `rm -fr x` and `rm -r -f x` too. */
  readonly deny: readonly string[];
}

export interface PolicyVerdict {
  readonly decision: Decision;
  /** Why, one line per finding, for the approval prompt and the agent. */
  readonly reasons: readonly string[];
}

const SAFE_REDIRECT = /^(\d*>&\d|\d*>&-|\d*>\s*\/dev\/null|&>\/dev\/null|\d*>>\/dev\/null)$/;
const RANK: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };

/** What one evaluation found so far, and where the command runs (for judging its paths). */
class Findings {
  decision: Decision = "allow";
  readonly reasons: string[] = [];
  constructor(readonly scope: PolicyScope) {}
  add(decision: Decision, reason: string): void {
    if (RANK[decision] > RANK[this.decision]) this.decision = decision;
    if (decision !== "allow") this.reasons.push(`${decision}: ${reason}`);
  }
}

export interface CommandPolicyOptions {
  /** Worktree-relative paths agents may not write (the defaults plus the repository's hooks paths). */
  readonly protectedPaths?: readonly string[];
  /** The user's checkout and the repository's common git dir: outside every worktree, their secrets denied. */
  readonly repository?: { readonly topLevel: string; readonly commonDir: string };
  /** The real home (default: the current user's, read at each evaluation). */
  readonly home?: string;
}

export class CommandPolicy {
  private readonly protectedNames: readonly string[];

  constructor(
    readonly rules: PolicyRules,
    private readonly options: CommandPolicyOptions = {},
  ) {
    this.protectedNames = options.protectedPaths ?? DEFAULT_PROTECTED;
  }

  /** The verdict on `command`, run in `where.cwd` (the agent's worktree) when given. */
  evaluate(command: string, where: { readonly cwd?: string } = {}): PolicyVerdict {
    const f = new Findings({
      ...(where.cwd ? { cwd: where.cwd } : {}),
      home: this.options.home ?? os.homedir(),
      ...(this.options.repository
        ? { checkout: this.options.repository.topLevel, gitDir: this.options.repository.commonDir }
        : {}),
      protectedPaths: this.protectedNames,
    });
    this.evaluateInto(command, f, 0);
    return {
      decision: f.decision,
      reasons: f.reasons.length > 0 ? f.reasons : ["allow: every part matches an allow rule"],
    };
  }

  private evaluateInto(command: string, f: Findings, depth: number): void {
    if (depth > 4) return f.add("ask", "commands nested too deeply to check");
    const parsed = parseShell(command);
    if (!parsed.ok) return f.add("ask", `${parsed.reason}; a command that cannot be checked is never allowed`);
    for (const pipeline of parsed.pipelines) {
      if (pipeline.then === "&") f.add("ask", "runs a command in the background");
      pipeline.commands.forEach((cmd, i) => this.checkCommand(cmd, i > 0, f, depth));
    }
  }

  private checkWords(words: readonly Word[], f: Findings, depth: number): void {
    for (const w of words) {
      for (const e of w.expansions) {
        if (e.kind === "parameter") {
          if (/^!|@[A-Za-z]$/.test(e.body) || /@[QEPAaKkUuL]\}?$/.test(e.body))
            f.add("deny", `the parameter transformation or indirection \${${e.body}}`);
          else f.add("ask", `the parameter expansion \${${e.body}}`);
        } else if (e.kind === "command" || e.kind === "process") {
          f.add("ask", `the ${e.kind} substitution ${e.body.slice(0, 80)}`);
          this.evaluateInto(e.body, f, depth + 1);
        } else if (e.kind === "arithmetic") f.add("ask", "an arithmetic expansion");
      }
    }
  }

  private checkCommand(cmd: SimpleCommand, piped: boolean, f: Findings, depth: number): void {
    this.checkWords([...cmd.assignments, ...cmd.argv, ...cmd.redirects.map((r) => r.target)], f, depth);
    for (const a of cmd.assignments) {
      const name = a.text.slice(0, a.text.search(/\+?=/));
      f.add(DANGEROUS_ENV.test(name) ? "deny" : "ask", `sets the environment variable ${name}`);
    }
    const add = (d: Decision, reason: string) => f.add(d, reason);
    for (const w of [...cmd.assignments, ...cmd.argv.slice(1)]) judgeWord(w, false, f.scope, add);
    if (cmd.argv[0]?.text.includes("/")) judgeWord(cmd.argv[0], false, f.scope, add);
    for (const r of cmd.redirects) judgeWord(r.target, !/^\d*(<|<&)$/.test(r.op), f.scope, add);
    for (const r of cmd.redirects) {
      const spec = `${r.op}${r.target.text}`;
      if (mentionsProtected(r.target.text, this.protectedNames))
        f.add("deny", `redirects into the protected path ${r.target.text}`);
      else if (!SAFE_REDIRECT.test(spec) || r.target.expansions.length > 0)
        f.add("ask", `the redirect ${r.op} ${r.target.text}`);
    }
    if (cmd.argv.length === 0) return;
    const argv = cmd.argv.map((w) => w.text);
    if (cmd.argv[0].expansions.length > 0) f.add("ask", "the command name comes from an expansion");
    this.checkProgram(argv, cmd.argv, piped, f, depth);
  }

  private checkProgram(
    argv: readonly string[],
    words: readonly Word[],
    piped: boolean,
    f: Findings,
    depth: number,
  ): void {
    const name = basename(argv[0]);
    if (ALWAYS_DENY.has(name)) f.add("deny", `'${name}' runs code the policy cannot see or changes privileges`);
    if (SHELLS.has(name) || INTERPRETERS.has(name)) this.checkInterpreter(name, argv, words, piped, f, depth);
    if (WRAPPERS.has(name)) this.checkWrapped(name, argv, f, depth);
    if (name === "git") this.checkGit(argv, f);
    for (const rule of [...BUILTIN_DENY, ...this.rules.deny])
      if (matchesDeny(rule, argv)) f.add("deny", `matches the deny rule "${rule}"`);
    for (const rule of this.rules.ask) if (matchesPrefix(rule, argv)) f.add("ask", `matches the ask rule "${rule}"`);
    if (argv.slice(1).some((a) => mentionsProtected(a, this.protectedNames)))
      f.add("ask", "an argument names a protected path");
    const literal = words.every((w) => w.expansions.length === 0) && !argv[0].includes("/");
    if (!literal || !this.rules.allow.some((rule) => matchesPrefix(rule, argv)))
      f.add("ask", `'${argv.slice(0, 2).join(" ")}' matches no allow rule`);
  }

  private checkInterpreter(
    name: string,
    argv: readonly string[],
    words: readonly Word[],
    piped: boolean,
    f: Findings,
    depth: number,
  ): void {
    const codeFlag = argv.findIndex((a, i) => i > 0 && /^(-[a-zA-Z]*c|-e|--eval|-p|--print|-r)$/.test(a));
    const readsStdin = argv.length === 1 || argv.slice(1).every((a) => a.startsWith("-")) || argv.includes("-");
    if (piped && readsStdin && codeFlag < 0)
      f.add("deny", `pipes data into the ${SHELLS.has(name) ? "shell" : "interpreter"} '${name}'`);
    if (codeFlag < 0) return f.add("ask", `runs '${name}'`);
    const code = words[codeFlag + 1];
    if (!code) return f.add("ask", `'${name} ${argv[codeFlag]}' without code`);
    if (code.expansions.some((e) => e.kind === "command" || e.kind === "parameter" || e.kind === "process")) {
      f.add("deny", `'${name}' runs a command string built by a substitution`);
    }
    f.add("ask", `runs code given inline to '${name}'`);
    if (SHELLS.has(name)) this.evaluateInto(code.text, f, depth + 1);
  }

  private checkWrapped(name: string, argv: readonly string[], f: Findings, depth: number): void {
    f.add("ask", `'${name}' runs another command`);
    if (name === "find" || name === "fd") {
      const at = argv.findIndex((a) => /^(-exec|-execdir|-ok|-okdir|-x|--exec|--exec-batch|-X)$/.test(a));
      if (at >= 0)
        this.evaluateInto(
          argv
            .slice(at + 1)
            .filter((a) => a !== ";" && a !== "+" && a !== "{}")
            .join(" "),
          f,
          depth + 1,
        );
      if (argv.includes("-delete")) f.add("ask", "find -delete removes files");
      return;
    }
    // The wrapped command: the first word after the wrapper's options and arguments that looks like a program.
    let i = 1;
    while (
      i < argv.length &&
      (argv[i].startsWith("-") || /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i]) || /^\d+(\.\d+)?[smhd]?$/.test(argv[i]))
    )
      i++;
    const inner = argv.slice(i);
    if (inner.length === 0) return;
    for (const rule of [...BUILTIN_DENY, ...this.rules.deny])
      if (matchesDeny(rule, inner)) f.add("deny", `runs '${inner[0]}', which matches the deny rule "${rule}"`);
    const innerName = basename(inner[0]);
    if (ALWAYS_DENY.has(innerName)) f.add("deny", `runs '${innerName}'`);
    if (SHELLS.has(innerName) && inner.some((a) => /^-[a-zA-Z]*c$/.test(a)))
      f.add("deny", `'${name}' starts a shell with a command string`);
  }

  private checkGit(argv: readonly string[], f: Findings): void {
    for (const a of argv.slice(1)) {
      if (!a.startsWith("-")) break;
      if (/^(-c|--config-env|--exec-path|--git-dir|--work-tree|--namespace)(=|$)/.test(a))
        f.add("deny", `git ${a} changes git's configuration or target for one command`);
    }
    if (argv.some((a) => /^--(output|upload-pack|receive-pack|exec)(=|$)/.test(a) || a === "--ext-diff"))
      f.add("ask", "a git option that writes files or runs programs");
  }
}
