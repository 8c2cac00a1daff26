/**
 * Counts requests that are being processed, per key (a message or card id), and remembers the
 * highest count seen, so tests can assert "never more than one request in flight for this card".
 * Counted in real time, independent of the emulator clock.
 */
export class InFlightTracker {
  private readonly current = new Map<string, number>();
  private readonly peak = new Map<string, number>();

  /** Marks one request for `key` as started; call the returned function when it is answered. */
  enter(key: string): () => void {
    const now = (this.current.get(key) ?? 0) + 1;
    this.current.set(key, now);
    if (now > (this.peak.get(key) ?? 0)) this.peak.set(key, now);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.current.set(key, (this.current.get(key) ?? 1) - 1);
    };
  }

  /** Requests for `key` being processed right now. */
  now(key: string): number {
    return this.current.get(key) ?? 0;
  }

  /** The most requests for `key` ever processed at the same time. */
  max(key: string): number {
    return this.peak.get(key) ?? 0;
  }
}
