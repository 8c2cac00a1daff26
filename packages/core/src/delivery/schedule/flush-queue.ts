/**
 * The flush state of one card: at most one request in flight, requests made meanwhile coalesce
 * into one (the most urgent rank wins), a minimum interval between two request starts, and a
 * not-before time for backoff. It knows nothing about finals or platforms: ranks are numbers
 * (lower goes first) and an `urgent` request skips the minimum interval.
 */
export class FlushQueue {
  private rank: number | undefined;
  private since = 0;
  private urgent = false;
  private notBefore = 0;
  private lastStartAt = Number.NEGATIVE_INFINITY;
  private busy = false;
  private beforeStart: { rank: number; since: number; urgent: boolean; lastStartAt: number } | undefined;

  /** @param minIntervalMs least time between two request starts of this card, in ms. */
  constructor(private readonly minIntervalMs: number) {}

  /**
   * Asks for a flush of rank `rank` (lower = more urgent) at `now` (epoch ms). A pending request
   * keeps the lower rank and its original time; `urgent` sticks until the flush starts.
   */
  request(rank: number, now: number, urgent = false): void {
    if (this.rank === undefined) this.since = now;
    if (this.rank === undefined || rank < this.rank) this.rank = rank;
    this.urgent ||= urgent;
  }

  /** Rank of the pending request; undefined when none is pending. */
  get pendingRank(): number | undefined {
    return this.rank;
  }

  /** Epoch ms of the oldest request coalesced into the pending one (fairness within a rank). */
  get pendingSince(): number {
    return this.since;
  }

  /** True when the pending request skips the minimum interval. */
  get isUrgent(): boolean {
    return this.rank !== undefined && this.urgent;
  }

  /** True while a request of this card is in flight. */
  get inFlight(): boolean {
    return this.busy;
  }

  /** Epoch ms from which the pending request may start; infinite when none is pending or one is in flight. */
  readyAt(): number {
    if (this.rank === undefined || this.busy) return Number.POSITIVE_INFINITY;
    return this.urgent ? this.notBefore : Math.max(this.notBefore, this.lastStartAt + this.minIntervalMs);
  }

  /** No request starts before `epochMs` (backoff, rate limit); replaces an earlier not-before time. */
  notBeforeTime(epochMs: number): void {
    this.notBefore = epochMs;
  }

  /**
   * Starts the pending request at `now`: returns its rank and marks the card in flight.
   * @throws Error when nothing is pending or a request is already in flight (a scheduler bug).
   */
  start(now: number): number {
    const rank = this.rank;
    if (rank === undefined || this.busy) throw new Error('flush started with nothing pending or one in flight');
    this.beforeStart = { rank, since: this.since, urgent: this.urgent, lastStartAt: this.lastStartAt };
    this.rank = undefined;
    this.urgent = false;
    this.busy = true;
    this.lastStartAt = now;
    return rank;
  }

  /**
   * Takes back the last {@link start} (its call did not leave: no budget slot yet): the request is
   * pending again with its rank, age and urgency, merged with any request made meanwhile.
   * @throws Error when no request is in flight (a scheduler bug).
   */
  unstart(): void {
    const before = this.beforeStart;
    if (!this.busy || !before) throw new Error('flush taken back with none in flight');
    this.busy = false;
    this.beforeStart = undefined;
    this.lastStartAt = before.lastStartAt;
    this.since = this.rank === undefined ? before.since : Math.min(before.since, this.since);
    this.rank = this.rank === undefined ? before.rank : Math.min(before.rank, this.rank);
    this.urgent ||= before.urgent;
  }

  /** The request in flight settled. */
  settle(): void {
    this.busy = false;
    this.beforeStart = undefined;
  }

  /** Drops the pending request (nothing more to send). */
  clear(): void {
    this.rank = undefined;
    this.urgent = false;
  }
}
