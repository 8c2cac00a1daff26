/**
 * Expected ms from a call leaving to the platform counting it: half the smoothed round trip, kept
 * steady. The published value moves only once the smoothed one drifted `stepMs` away from it: a
 * card whose departure was planned with one estimate and that leaves after the estimate rose is
 * counted that much later by the budget store, and a jittery estimate (one step per answer) would
 * lose a little of the paced rate on every call.
 */
export class ArrivalDelayEstimate {
  private smoothedMs: number | undefined;
  private publishedMs = 0;

  /** @param stepMs least drift of the smoothed estimate that changes the published one, ms. */
  constructor(private readonly stepMs = 5) {}

  /** The current estimate, ms (0 before the first round trip). */
  get ms(): number {
    return this.publishedMs;
  }

  /** One call's round trip, ms (leaving to its answer). */
  observe(roundTripMs: number): void {
    const half = Math.max(0, roundTripMs) / 2;
    this.smoothedMs = this.smoothedMs === undefined ? half : 0.9 * this.smoothedMs + 0.1 * half;
    if (Math.abs(this.smoothedMs - this.publishedMs) >= this.stepMs) this.publishedMs = Math.round(this.smoothedMs);
  }
}
