// Which verified merges are refused, and the words the agent reads: a test that passed on the integration branch
// and fails now, a run that is no verdict (exit 127, no test found), and, since verification fails closed, a run
// that could not happen at all (no sandbox, a command the policy does not allow, a timeout) unless the recipe
// says `verify: "off"`. Each says why and what would let the merge through.
import type { MergeProgressResult, MergeVerification } from "../protocol/tools";

const STAYED = "The integration branch did not move; your branch now holds it merged in.";

/** The refusal a verification calls for, or undefined when the merge may be published. */
export function verificationRefusal(
  verification: MergeVerification,
  publishUnverified: boolean,
): MergeProgressResult | undefined {
  if (verification.status === "could-not-run")
    return {
      status: "refused",
      message: `Not merged: ${verification.note}\n${STAYED} Make the test command run (a missing program or runner, or no test found), commit, and call merge_progress again; or tell the person.`,
      verification,
    };
  if (verification.status === "unverified" && !publishUnverified) {
    const why = verification.note.replace(/^unverified: /, "");
    return {
      status: "refused",
      message: `Not merged: ${why}. Verification is on, so a merge whose tests could not run is refused (the recipe's "verify": "off" would publish it unverified). ${STAYED} Tell the person what would let the tests run; call merge_progress again once it is done.`,
      verification: { ...verification, status: "could-not-run", note: why },
    };
  }
  if (verification.status === "broke-tests")
    return {
      status: "refused",
      message: `Not merged: ${verification.note}. ${STAYED} Fix the failing tests, commit, and call merge_progress again.`,
      verification,
    };
  return undefined;
}
