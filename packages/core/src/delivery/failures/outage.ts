import { isTerminalStatus, type CardView } from '../../card/view.js';

/**
 * A card's outage: after `maxConsecutiveFailures` its progressive updates pause, and the card
 * probes the platform with backoff (half-open) instead of waiting for the final. The first call
 * that succeeds brings the latest state at once, and from then on the card says that live updates
 * were interrupted and since when (the time its last update before the outage was accepted).
 */
export class CardOutage {
  private interruptedSince: number | undefined;
  private shownSince: number | undefined;
  private probes = 0;
  private lastAcceptedAt: number | undefined;

  /** A call of the card was accepted at `now` (epoch ms). */
  accepted(now: number): void {
    this.lastAcceptedAt = now;
  }

  /** True while updates are paused and probing. */
  get ongoing(): boolean {
    return this.interruptedSince !== undefined;
  }

  /** The outage begins at `now`: updates have not reached the card since its last accepted call (or `now` when none was). */
  begin(now: number): void {
    this.interruptedSince ??= this.lastAcceptedAt ?? now;
    this.probes = 0;
  }

  /** The wait before the next probe: `delaysMs` by probe, the last one repeating. */
  nextProbeDelay(delaysMs: readonly number[]): number {
    const delay = delaysMs[Math.min(this.probes, delaysMs.length - 1)] ?? 5000;
    this.probes += 1;
    return delay;
  }

  /** A probe got through: updates flow again, and the card shows since when they had been interrupted. */
  recovered(): void {
    this.shownSince = this.interruptedSince;
    this.interruptedSince = undefined;
  }

  /**
   * `view` with the `updates-interrupted` notice during and after an outage, so the first update
   * that gets through says it (a notice of the card's own wins).
   */
  decorate(view: CardView): CardView {
    const since = this.interruptedSince ?? this.shownSince;
    if (since === undefined || view.notice || isTerminalStatus(view.status)) return view;
    return { ...view, notice: { kind: 'updates-interrupted', since } };
  }
}
