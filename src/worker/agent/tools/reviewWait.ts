// wait_for_review: blocks until the review ledger has an event for the caller (or the wait or the agent's stop
// ends first). Events already waiting are returned at once, so an event that came before the wait is not lost.
import type { ReviewEvent } from "../../../core/reviewState";
import type { SwarmBoard } from "../../../core/swarmBoard";

export async function waitForReview(
  ctx: { readonly agent: string; readonly board: SwarmBoard; readonly signal?: AbortSignal },
  timeoutMs: number,
): Promise<{ events: ReviewEvent[]; timedOut: boolean }> {
  const { reviews } = ctx.board;
  if (!reviews.hasUnread(ctx.agent) && timeoutMs > 0 && ctx.signal?.aborted !== true) {
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stop();
        ctx.signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      const stop = reviews.onEvent(() => {
        if (reviews.hasUnread(ctx.agent)) done();
      });
      ctx.signal?.addEventListener("abort", done, { once: true });
    });
  }
  const events = reviews.take(ctx.agent);
  return { events, timedOut: events.length === 0 };
}
