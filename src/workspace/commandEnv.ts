// The environment a command sees is built from an allowlist, never the worker's environment minus a pattern:
// secrets have names no pattern can guess (GH_PAT, DATABASE_URL, PGPASS), so only names known to be harmless
// pass, plus a private HOME and TMPDIR and the names a recipe declares on purpose.

/** Variables passed from the worker's environment: where programs are, language and terminal. */
const PASSED = /^(PATH|LANG|LANGUAGE|LC_[A-Z]+|TERM|TZ|NO_COLOR|FORCE_COLOR)$/;
/** Names that make a shell, the loader, git or a runtime run extra code: never passed, even when declared. */
const CODE_ENV =
  /^(BASH_ENV|ENV|BASH_FUNC_.*|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|IFS|LD_[A-Z_]+|DYLD_[A-Z_]+|NODE_OPTIONS|PYTHONSTARTUP|PYTHONPATH|PERL5OPT|RUBYOPT|GIT_[A-Z_]+|SSH_AUTH_SOCK|SSH_AGENT_PID)$/;

export interface CommandEnvScope {
  /** The command's private home (a fresh folder, or the sandbox's own); never the user's. */
  readonly home: string;
  /** The command's private temporary folder. */
  readonly tmp?: string;
  /** Further names to pass from the worker's environment, as a recipe declares them. */
  readonly pass?: readonly string[];
}

/** The environment for one command: the allowlist, the private folders, git hooks off. */
export function commandEnv(
  base: NodeJS.ProcessEnv = process.env,
  scope: CommandEnvScope = { home: "/tmp" },
): Record<string, string> {
  const env: Record<string, string> = {};
  const declared = new Set(scope.pass ?? []);
  for (const [k, v] of Object.entries(base)) {
    if (v !== undefined && (PASSED.test(k) || declared.has(k)) && !CODE_ENV.test(k)) env[k] = v;
  }
  env.HOME = scope.home;
  if (scope.tmp !== undefined) env.TMPDIR = scope.tmp;
  // Git run by the command (git log, git diff) gets hooks off and never takes optional locks.
  Object.assign(env, {
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "core.hooksPath",
    GIT_CONFIG_VALUE_0: "/dev/null",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_TERMINAL_PROMPT: "0",
  });
  return env;
}
