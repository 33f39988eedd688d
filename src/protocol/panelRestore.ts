// What the panel's page keeps across a window reload (VS Code stores it with the webview and hands it to the
// host's panel serializer). Only the id of the swarm it showed: the host reads the swarm itself again. Parsed on
// the host's side like any message from the page.
import { z } from "zod";

/** The type VS Code restores panels by (`onWebviewPanel:` activation names it too). */
export const panelViewType = "swarmboard.panel";

export const panelRestoreStateSchema = z.object({
  swarmId: z.string().min(1).max(200).optional(),
});
export type PanelRestoreState = z.infer<typeof panelRestoreStateSchema>;
