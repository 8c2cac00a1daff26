/**
 * Calls of one card message that failed without a clear answer (timeouts, connection errors:
 * `transient`) may still be applied by the platform later, after newer content. Neither Feishu's
 * message patch nor DingTalk's card update carries a version to fence such a late write, so the
 * final is re-asserted once no such call can land any more: `finalDelivery` is reported only then.
 */
export class LateCallFence {
  private landUntil = Number.NEGATIVE_INFINITY;
  private reassert = false;

  /** @param windowMs how long after its failure a call may still be applied (`RetrySettings.lateApplyWindowMs`). */
  constructor(private readonly windowMs: number) {}

  /** A call carrying older (non-final) content failed at `now` without a clear answer. */
  callMayLandLate(now: number): void {
    this.landUntil = Math.max(this.landUntil, now + this.windowMs);
  }

  /**
   * The final was accepted at `now`. Returns the epoch ms at which it must be sent again because an
   * older call may still land before then, or undefined when nothing can land after it any more.
   */
  finalAccepted(now: number): number | undefined {
    this.reassert = this.landUntil > now;
    return this.reassert ? this.landUntil : undefined;
  }

  /** True when the next flush must send the final again although the message shows it already. */
  get reassertDue(): boolean {
    return this.reassert;
  }

  /** The message was given up for a fresh one: its late calls no longer matter to the new one. */
  reset(): void {
    this.landUntil = Number.NEGATIVE_INFINITY;
    this.reassert = false;
  }
}
