// Disposable discipline (STYLE.md habit 4): teardown is registered where a resource is acquired,
// and a store that is already disposed disposes whatever is added to it afterwards.

export interface Disposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (!done) {
        done = true;
        fn();
      }
    },
  };
}

export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>();
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
    } else {
      this.items.add(item);
    }
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    // Dispose in reverse order of acquisition, like a stack of `finally` blocks.
    for (const item of [...this.items].reverse()) {
      try {
        item.dispose();
      } catch (err) {
        errors.push(err);
      }
    }
    this.items.clear();
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, "several disposables failed");
  }
}

export abstract class DisposableBase implements Disposable {
  private readonly store = new DisposableStore();

  protected register<T extends Disposable>(item: T): T {
    return this.store.add(item);
  }

  protected get isDisposed(): boolean {
    return this.store.isDisposed;
  }

  dispose(): void {
    this.store.dispose();
  }
}
