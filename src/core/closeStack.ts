// What a multi-step set-up has opened so far, each with its close, registered right where it was opened: when a
// later step fails, everything is closed in reverse order (like a stack of `finally` blocks) before the error goes
// on. A close that fails does not keep the others from closing, nor hide the set-up's own error.
export class CloseStack {
  private readonly closes: Array<() => Promise<void>> = [];

  /** Registers the close of what was just opened; returns `opened`, for one-line acquisitions. */
  push<T>(opened: T, close: (opened: T) => Promise<void>): T {
    this.closes.push(() => close(opened));
    return opened;
  }

  /** Closes everything registered, last first; resolves with the errors of the closes that failed. */
  async closeAll(): Promise<unknown[]> {
    const errors: unknown[] = [];
    for (const close of this.closes.splice(0).reverse()) {
      try {
        await close();
      } catch (error) {
        errors.push(error);
      }
    }
    return errors;
  }
}
