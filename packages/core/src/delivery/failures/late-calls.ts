/**
 * Calls of one card message that failed without a clear answer (timeouts, connection errors:
 * `transient`) may still be applied by the platform later, after newer content. Neither Feishu's
 * message patch nor DingTalk's card update carries a version to fence such a late write, so the
 * final is re-asserted once no such call can land any more: `finalDelivery` is reported only then.
 */
export class LateCallFence {
  private landUntil = Number.NEGATIVE_INFINITY;
  private reassert = false;
  /** When the call the message last accepted the final from was sent. */
  private shownAt = Number.NEGATIVE_INFINITY;
  /** Also counting the final's own tries. */
  private anyUntil = Number.NEGATIVE_INFINITY;

  /** @param windowMs how long after its failure a call may still be applied (`RetrySettings.lateApplyWindowMs`). */
  constructor(readonly windowMs: number) {}

  /**
   * A call failed at `now` without a clear answer. `final`: it carried the final state, which may
   * land late on this message harmlessly, but not on a message the final moved away from.
   */
  callMayLandLate(now: number, final: boolean): void {
    const until = now + this.windowMs;
    this.anyUntil = Math.max(this.anyUntil, until);
    if (!final) this.landUntil = Math.max(this.landUntil, until);
  }

  /** The message accepted the final sent at `now` (epoch ms: the start of the call, as it may have been applied any time after). */
  finalShown(now: number): void {
    this.shownAt = now;
    this.reassert = false;
  }

  /**
   * The final is complete (continuation parts included) at `now`. Returns the epoch ms at which the
   * final must be sent again because an older call may have landed after it was shown, or undefined
   * when nothing can land after it any more.
   */
  finalComplete(now: number): number | undefined {
    this.reassert = this.landUntil > this.shownAt;
    return this.reassert ? Math.max(this.landUntil, now) : undefined;
  }

  /** Epoch ms until which any call of the message, the final's tries included, may still land (-Infinity when none may). */
  get anyLandsUntil(): number {
    return this.anyUntil;
  }

  /** True when the next flush must send the final again although the message shows it already. */
  get reassertDue(): boolean {
    return this.reassert;
  }

  /** The message was given up for a fresh one: its late calls no longer matter to the new one. */
  reset(): void {
    this.landUntil = Number.NEGATIVE_INFINITY;
    this.anyUntil = Number.NEGATIVE_INFINITY;
    this.shownAt = Number.NEGATIVE_INFINITY;
    this.reassert = false;
  }
}
