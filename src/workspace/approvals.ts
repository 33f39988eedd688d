// Approval of commands the policy asks about. Requests go out as events through an interface: the host shows
// them to the user; the CLI denies unless told otherwise. A request nobody answers in time is denied.
import { toDisposable, type Disposable } from "../core/disposable";
import type { ApprovalRequest } from "../protocol/userReview";

export type { ApprovalRequest };

export interface CommandApprover {
  /** Resolves true when the user approved the command, false otherwise (including timeouts and aborts). */
  requestApproval(request: ApprovalRequest, signal?: AbortSignal): Promise<boolean>;
}

/** The CLI's default: nothing that needs approval runs. */
export const denyAllApprover: CommandApprover = { requestApproval: async () => false };

/** For a CLI run with --approve-commands: approves everything the policy asks about (denials still stand). */
export const approveAllApprover: CommandApprover = { requestApproval: async () => true };

/**
 * Emits each request to its listeners (the worker forwards them to the host) and waits for `answer(id, ok)`.
 * With no listener, or no answer within `timeoutMs`, the request is denied.
 */
export class EventApprover implements CommandApprover {
  private readonly listeners = new Set<(request: ApprovalRequest) => void>();
  private readonly waiting = new Map<string, (approved: boolean) => void>();

  constructor(private readonly timeoutMs = 5 * 60_000) {}

  onRequest(listener: (request: ApprovalRequest) => void): Disposable {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  }

  /** The user's answer to request `id`; false for an unknown or already answered id. */
  answer(id: string, approved: boolean): boolean {
    const resolve = this.waiting.get(id);
    if (!resolve) return false;
    resolve(approved);
    return true;
  }

  requestApproval(request: ApprovalRequest, signal?: AbortSignal): Promise<boolean> {
    if (this.listeners.size === 0 || signal?.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const finish = (approved: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.waiting.delete(request.id);
        resolve(approved);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(false), this.timeoutMs);
      signal?.addEventListener("abort", onAbort);
      this.waiting.set(request.id, finish);
      for (const listener of [...this.listeners]) listener(request);
    });
  }
}
