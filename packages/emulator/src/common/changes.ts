/**
 * A tiny publish/subscribe feed for "message changed" events. The CLI's live preview page streams
 * these over SSE; tests can use them to wait for a card to change.
 */
export type ChangeListener<E> = (event: E) => void;

/** Fan-out of change events. A listener that throws is ignored (it cannot break the emulator). */
export class ChangeFeed<E> {
  private readonly listeners = new Set<ChangeListener<E>>();

  /** Registers `listener`; returns a function that removes it. */
  subscribe(listener: ChangeListener<E>): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Delivers `event` to every current listener, synchronously, in subscription order. */
  emit(event: E): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A faulty subscriber must not turn an accepted platform call into a 500.
      }
    }
  }

  /** Number of current listeners. */
  get size(): number {
    return this.listeners.size;
  }
}
