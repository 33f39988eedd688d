// The swarm's report (`report.md` in the state dir): the synthesist reads every pad and writes it; when the recipe
// has no synthesist, or it ended without writing one, the board is compiled into one and the report says why.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { boardReport, synthesistBrief } from "../../core/agentBriefs";
import type { SwarmRun } from "./swarmRun";
import type { SeatEnd, SwarmSeats } from "./swarmSeats";

/** Runs the fan-in and writes the report; the synthesist's end is added to `ends`. Resolves with its path. */
export async function writeSwarmReport(
  run: Pick<SwarmRun, "options" | "board" | "plan">,
  seats: SwarmSeats,
  ends: SeatEnd[],
): Promise<string> {
  const { board, plan, options } = run;
  const reportPath = path.join(options.stateDir, "report.md");
  let report: { title: string; body: string } | undefined;
  let why = "This swarm's recipe has no synthesist: this report was compiled from the board.";
  if (plan.synthesist !== undefined) {
    const { role, tools } = plan.synthesist;
    const synth = await seats.runSynthesist(role, tools, (id) => synthesistBrief(id, role, board.board.entries()));
    ends.push(synth);
    report = synth.end.report;
    why = `The synthesist ended without writing a report (${synth.end.reason}): this report was compiled from the board.`;
  }
  const text = report ? `# ${report.title}\n\n${report.body}\n` : boardReport(options.goal, board.board.entries(), why);
  await writeFile(reportPath, text);
  return reportPath;
}
