// The command policy a swarm runs under when nobody configured one (the CLI; the host passes the user's
// `swarmboard.commandPolicy`). Reading commands and the project's tests run; anything else asks.
import type { PolicyRules } from "../../workspace/commandPolicy";

export const defaultPolicyRules: PolicyRules = {
  allow: ["git status", "git diff", "git log", "git show", "ls", "cat", "head", "tail", "wc", "grep", "npm test"],
  ask: [],
  deny: ["rm -rf", "curl", "wget"],
};
