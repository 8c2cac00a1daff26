/**
 * How long the agent thought, for the reasoning header ("Thought for 12s"). A stretch of thinking
 * starts when the event before its first thinking text happened (the model was working from then
 * on: a whole thinking block of a transcript arrives only when it is done) and ends with the next
 * answer text, tool call, question, round or the run's end. Stretches add up.
 */
export class ThinkingTime {
  private spentMs = 0;
  private since: number | undefined;

  /** Thinking text arrived at `at`; `previousEventAt` is when the event before it happened. */
  thought(at: number, previousEventAt: number): void {
    if (this.since === undefined) this.since = Math.min(at, Number.isFinite(previousEventAt) ? previousEventAt : at);
  }

  /** Something other than thinking happened at `at`: a running stretch ends there. */
  moveOn(at: number): void {
    if (this.since === undefined) return;
    this.spentMs += Math.max(0, at - this.since);
    this.since = undefined;
  }

  /** True while a stretch of thinking is open. */
  get active(): boolean {
    return this.since !== undefined;
  }

  /** Thinking time in ms at `now` (an open stretch counts up to `now`). */
  totalMs(now: number): number {
    return this.spentMs + (this.since === undefined ? 0 : Math.max(0, now - this.since));
  }
}
