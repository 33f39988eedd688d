// What `swarmboard --help` prints (every command's usage), what `swarmboard <command> --help` prints (that
// command's), and what a usage error prints after its message.
import { modelCatalogue } from "../core/modelCatalogue";

/** The catalogue's names, three a line under the description column. */
function catalogueNameLines(): string {
  const ids = modelCatalogue.map((m) => m.id);
  const lines: string[] = [];
  for (let i = 0; i < ids.length; i += 3) lines.push(ids.slice(i, i + 3).join(", "));
  return lines.join(",\n" + " ".repeat(45));
}

const catalogueNames = catalogueNameLines();

/** Each command's usage, by the words that name it (src/cli/commandTable.ts pairs them with their handlers). */
export const commandUsage = {
  run: `  swarmboard run --goal <text> [options]     run a swarm headless on a git workspace
      --recipe <name|file.json>   organization (default), research, fix-failing-tests, todo-sweep, or a file
      --agents <n>                agents to fork from the shared trunk (default: the recipe's)
      --model <file.gguf>         the model, loaded once (default: $SWARMBOARD_MODEL)
      --workspace <dir>           the git repository to work on (default: the current folder)
      --threads <n>               CPU threads for decoding (default 2)
      --budget-ms <ms>            wall-clock budget; the synthesist fans in when it runs out
      --thinking-tokens <n>       let agents write up to n tokens before each call, in their model family's way
                                  (default: the recipe's budgets.thinkingTokens; none)
      --kv-cells <n>              cap on the KV cells of the whole swarm (default: sized from free memory)
      --memory-budget <size>      most memory the swarm's KV cache may take, like 6GB or 512MiB (caps its cells
                                  at the model's bytes per cell; default: sized from free memory)
      --pool-share <n>            most KV cells this swarm may take of a pool it shares with other swarms on
                                  the same model (at least 256; default: a fair share of the pool)
      --pool-swarms <n>           size a new pool for n swarms (1-16; default 1): each gets a fair share as
                                  its cap, and swarms launched later join it and step in the same dispatch
      --sparse-above-mib <n>      writers get sparse worktrees when one checkout is above n MiB (0: always;
                                  default: the recipe's budgets.sparseCheckoutAboveMiB, else 128)
      --gpu <backend>             auto (default: the GPU when a runtime built for it loads, else the CPU),
                                  cuda, vulkan, metal (fail with what to install when it cannot load), false (CPU)
      --kv-cache-type <type>      f16 (default), q8_0 (about half the bytes per cell), q5_1, q5_0, q4_1, q4_0,
                                  iq4_nl, bf16, f32
      --engine <local|remote>     local (default): the runtime in this process; remote: a serving engine
      --engine-url <url>          the remote engine (llama-server), e.g. http://127.0.0.1:8080; its API key, if
                                  any, from $SWARMBOARD_ENGINE_API_KEY; --model is then read for its vocabulary only
      --engine-model <name>       the model's name on the server (default: the one it serves)
      --engine-dialect <api>      auto (default: llama-server's own API when the server has it), llama-server,
                                  openai (/v1/completions: vLLM, SGLang)
      --state-dir <dir>           board, worktrees, report and trace (default: <workspace>/../.swarmboard-state/<id>)
      --events <file>             JSON-lines trace of every event (default: <state-dir>/events.jsonl)
      --script <file.json>        scripted turns: deterministic runs with forced tokens
      --approve-asks              allow commands the policy would ask about (default: deny them)
      --plain                     plain lines even on a terminal
      --no-agent-rules            leave AGENTS.md, CLAUDE.md, .clinerules, ... out of the trunk
      --server                    run on your shared worker (the default: swarmboard serve, started detached
                                  when none runs and left running for the next client): the model it has loaded
                                  is not loaded again; Ctrl-C stops the swarm there, a second Ctrl-C detaches
      --no-server                 run in this process instead (also SWARMBOARD_SERVER=0): no server started or
                                  used, the model loaded for this run alone and gone when it ends; for a machine
                                  where a background process or a local socket is not wanted, or to keep a run
                                  apart from the other clients' swarms
      --ask-user-timeout <s>      how long an agent's ask_user question waits for your answer on stdin (default
                                  300 on a terminal, 0 when stdin is not one: nobody answers, agents decide alone)
      While it runs, a line typed on stdin steers it: "@agent-2 <text>" messages one agent, any other line all;
      "/pause agent-2" and "/resume agent-2"; "/task <text>" adds a task to the board; "@answer question-1 <text>"
      answers an agent's question.
  swarmboard run --resume --state-dir <dir>  continue an interrupted swarm: its workspace, model, goal and recipe
                                             are read from the state dir (--model overrides a moved model file)
`,
  watch: `  swarmboard watch [run's options] [--triggers <file.jsonl>] [--trigger-rules <file.json>] [--poll-ms <ms>]
                                             a standing swarm (recipe watch by default): the model and trunk stay
                                             loaded and it takes triggers until Ctrl-C. Rules in code drop noise and
                                             send follow-ups to the worker that owns their thread; a router that can
                                             only dispatch assigns the rest, each to a new worker that owns that task.
      --triggers <file.jsonl>     a recorded stream of triggers, one JSON a line, taken first (ids taken before skipped)
      --trigger-rules <file.json> the fast path's rules: per source allow/deny globs, minSeverity, perMinute,
                                  threadsOnly; duplicateWindowMs, holdMs, saveDebounceMs
                                  (defaults: src/core/triggerFastPath.ts)
      --poll-ms <ms>              poll your branch: commits add TODO/FIXME triggers, files of open threads and
                                  (with the recipe's testCommand) failing tests
      On stdin: a plain line is a message trigger for the router; "/trigger <json>" any trigger, e.g.
      /trigger {"source":"diagnostic","path":"src/a.ts","line":3,"text":"TS2322 ...","severity":"error"}.
      Like run, watch stands on your shared worker by default: Ctrl-C stops it there, a second Ctrl-C detaches,
      and a watch whose process dies leaves its swarm standing; --no-server (or SWARMBOARD_SERVER=0) runs it in
      this process. A watch interrupted (the server killed, or with --no-server its own process) continues with:
      swarmboard watch --resume --state-dir <dir>  (--trigger-rules and --poll-ms given then win for that run)
`,
  mcp: `  swarmboard mcp [--model <file.gguf>] [--workspace <dir>] [--threads <n>] [--kv-cells <n>] [--state-root <dir>]
                [--gpu <backend>] [--kv-cache-type <type>] [--approve-asks] [--no-agent-rules]
                [--ask-user-timeout <s>] [--server | --no-server]
                                             an MCP server on stdio: tools swarmboard_launch, _status, _findings,
                                             _stop, message_swarm, add_task, answer_question, send_trigger and
                                             the swarms' boards as resources (see the README); --ask-user-timeout:
                                             how long ask_user waits for answer_question (default 0); its swarms
                                             run on your shared worker beside your windows' and runs' (started
                                             detached when none runs); --no-server (or SWARMBOARD_SERVER=0): in
                                             this process instead
`,
  eval: `  swarmboard eval [--suite <dir>] [--agents 1,4] [--tasks a,b] [--model <file.gguf>] [--free] [--json <file>]
                [--threads <n>] [--kv-cells <n>] [--budget-ms <ms>] [--gpu <backend>] [--kv-cache-type <type>]
                                             run a task suite (default examples/eval) with each agent count under the
                                             same budget; judge each integration branch with the hidden tests; print
                                             solved, wall clock, tokens, KV cells, merges, conflicts, duplicate claims
                                             (forced trajectories by default; --free lets the model run)
`,
  list: `  swarmboard list [--workspace <dir>]        the repository's swarms: outcome, branches (merged or not), findings
`,
  "clean-up": `  swarmboard clean-up <swarm-id> [--workspace <dir>] [--confirm <code>]
                                             without --confirm: list what would be removed and what is unmerged;
                                             with the code that list printed: remove its branches and worktrees
`,
  memory: `  swarmboard memory list | search <words> | delete <memory-id>... [--workspace <dir>]
                                             what earlier swarms verified on this repository (FACTs, merged patch
                                             summaries), each valid or stale at HEAD, with its swarm, agent and files;
                                             search ranks by BM25; a new swarm's trunk carries the relevant valid ones
`,
  "model pull": `  swarmboard model pull <hf-uri|url|name> [--dir <folder>] [--timeout <s>]
                                             download a GGUF (resumable) into the model cache; a name is one of:
                                             ${catalogueNames}
      --timeout <s>               give up when the server sends nothing for s seconds (default 60); the file
                                  must be a GGUF (its magic and size are checked before it is reported)
  swarmboard model pull --list [--kv-cells <n>]    instruct models with native tool calling: download size, KV bytes
                                             per cell and how many agents fit the budget
`,
  "replay-script": `  swarmboard replay-script <events.jsonl>          print a turn script that replays a run's calls (--script)
`,
  serve: `  swarmboard serve [--idle-minutes <n>]     the user's shared worker on a local socket: one model loaded once for
                                             every window and client; exits after n idle minutes (default 10; 0: never)
  swarmboard serve --status | --stop         what the running server is doing (clients, swarms, models, memory);
                                             stop it (at once, or after its running swarms end)
`,
  "runtime build": `  swarmboard runtime build [--gpu <type>]   build the shared-cells runtime for this machine (the patched
                                             node-llama-cpp), or install it from the cache when built before; says
                                             what to install when a compiler, cmake or the GPU toolkit is missing
      --gpu <type>                false (default: the CPU), cuda, vulkan, metal
`,
  replay: `  swarmboard replay <state-dir|events.jsonl> [options]
                                             run a recorded swarm again as a new swarm, every call forced from its
                                             trace, with the goal, recipe, model and settings its state dir saved
      --workspace <dir>           a checkout of the commit the run started from (default: the current folder)
      --model <file.gguf>         the model (default: the one the run saved)
      --state-dir <dir>           the replay's own state dir, to compare with the run's (default as for run)
      --threads <n>               CPU threads for decoding (default: the run's)
      --plain                     plain lines even on a TTY
`,
} as const;

export type CommandName = keyof typeof commandUsage;

export const exitCodesLine =
  "Exit codes: 0 completed, 1 failed, 2 bad input (the message says what to fix), 3 budget ran out, 4 stopped.\n";

export const usageText = `Usage:
${Object.values(commandUsage).join("")}  swarmboard --version | --help | <command> --help   this text, or one command's usage

${exitCodesLine}`;

/** What `swarmboard <command> --help` prints: the usage of that command (or of those named by these words). */
export function commandUsageText(usage: string): string {
  return `Usage:
${usage}
${exitCodesLine}`;
}
