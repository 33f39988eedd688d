// The worker's methods that need no running swarm: the review of a swarm's branches, the model files (facts,
// tool-calling support, pulls) and the project facts the launch wizard suggests a recipe from. Each registers its handler on the peer and returns what unregisters it.
import type { Disposable } from "../core/disposable";
import { HandlerError } from "../core/rpc/rpcPeer";
import type { ServicePeer } from "../core/rpc/servicePeer";
import {
  branchDiffMethod,
  changedFilesMethod,
  discardBranchMethod,
  fileAtRefMethod,
  listBranchesMethod,
  mergeBranchMethod,
  modelFactsMethod,
  modelToolCallingMethod,
  projectFactsMethod,
  pullModelMethod,
  pullProgressNotification,
} from "../protocol/swarmRpc";
import { modelLoadFacts } from "./modelLoadFacts";
import { modelToolCallingRefusal, pullModelFile } from "./modelFiles";
import { reviewService } from "./reviewService";
import { gatherProjectFacts } from "../workspace/projectFacts";

export function serveReview(peer: ServicePeer): Disposable[] {
  return [
    peer.handle(listBranchesMethod, (t) => reviewService.branches(t)),
    peer.handle(changedFilesMethod, (t) => reviewService.changedFiles(t, t.branch)),
    peer.handle(fileAtRefMethod, (t) => reviewService.fileAtRef(t, t.ref, t.path)),
    peer.handle(branchDiffMethod, (t) => reviewService.diff(t, t.branch)),
    peer.handle(mergeBranchMethod, (t) => reviewService.merge(t, t.branch)),
    peer.handle(discardBranchMethod, (t) => reviewService.discard(t, t.agentId)),
  ];
}

export function serveModels(peer: ServicePeer): Disposable[] {
  return [
    peer.handle(projectFactsMethod, ({ workspace }) => gatherProjectFacts(workspace)),
    // Errors keep their own code (model-corrupt, gpu-unavailable, memory-budget-too-small, ...) across the boundary,
    // so the host can say what to fix instead of a generic failure.
    peer.handle(modelFactsMethod, (p) =>
      modelLoadFacts(p).catch((error: unknown) => {
        const code = (error as { code?: unknown }).code;
        throw typeof code === "string" ? new HandlerError(code, (error as Error).message) : error;
      }),
    ),
    peer.handle(modelToolCallingMethod, async ({ modelPath }) => {
      const refusal = await modelToolCallingRefusal(modelPath);
      return refusal === undefined ? {} : { refusal };
    }),
    peer.handle(pullModelMethod, async ({ uri, dir }, signal) => ({
      path: await pullModelFile(uri, dir, (p) => peer.notify(pullProgressNotification, { uri, ...p }), signal),
    })),
  ];
}
