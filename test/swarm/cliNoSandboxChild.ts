// The real CLI (src/cli/main.ts, with the arguments this process got) as it runs on a machine where bwrap cannot
// make the sandbox but can make a pid namespace: only the sandbox probe says "unusable", so every command asks,
// and an approved one runs outside the sandbox in its own pid namespace (processContainment.ts). With
// SWARMBOARD_TEST_NO_CONTAINMENT=1 the containment probe says unusable too (the code before containment).
import { createRequire } from "node:module";
import * as bubblewrap from "../../src/workspace/bubblewrap";
import * as containment from "../../src/workspace/processContainment";

const reason = "the test's stand-in for a machine where bwrap cannot make the sandbox";
Object.assign(bubblewrap, {
  probeBubblewrap: () => Promise.resolve({ usable: false, installed: true, reason }),
});
if (process.env.SWARMBOARD_TEST_NO_CONTAINMENT === "1")
  Object.assign(containment, { probeContainment: () => Promise.resolve({ usable: false, reason }) });
createRequire(__filename)("../../src/cli/main");
