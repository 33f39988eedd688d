// The command policy a swarm runs under when nobody configured one (the CLI; the host passes the user's
// `swarmboard.commandPolicy`). Reading commands and the project's tests run; anything else asks.
import type { PolicyRules } from "../../workspace/commandPolicy";

export const defaultPolicyRules: PolicyRules = {
  allow: ["git status", "git diff", "git log", "git show", "ls", "cat", "head", "tail", "wc", "grep", "npm test"],
  ask: [],
  deny: ["rm -rf", "curl", "wget"],
};

/** The default rules as a start request carries them: fresh arrays, so no request shares (or changes) these. */
export function defaultPolicy(): { allow: string[]; ask: string[]; deny: string[] } {
  return {
    allow: [...defaultPolicyRules.allow],
    ask: [...defaultPolicyRules.ask],
    deny: [...defaultPolicyRules.deny],
  };
}
