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
  /** Rank of the last request started (undefined before the first). */
  private lastStartRank: number | undefined;
  private busy = false;
  private beforeStart: { rank: number; since: number; urgent: boolean; lastStartAt: number; lastStartRank: number | undefined } | undefined;

  /**
   * @param minIntervalMs least time between two request starts of this card, in ms.
   * @param yieldingRank requests of this rank and above (e.g. streamed text) never hold back a more
   *   urgent one: a request of a lower rank that follows the start of one of them skips the minimum
   *   interval once (so the card makes at most two calls per interval). Default: none yields.
   */
  constructor(
    private readonly minIntervalMs: number,
    private readonly yieldingRank = Number.POSITIVE_INFINITY,
  ) {}

  /**
   * Asks for a flush of rank `rank` (lower = more urgent) at `now` (epoch ms). A pending request
   * keeps the lower rank; its time is that of the first request of that rank (a tool change
   * arriving while a tick or text waits is as old as the tool change, not as the tick: cards of a
   * rank are served oldest change first); `urgent` sticks until the flush starts.
   */
  request(rank: number, now: number, urgent = false): void {
    if (this.rank === undefined || rank < this.rank) {
      this.rank = rank;
      this.since = now;
    }
    this.urgent ||= urgent;
  }

  /** Rank of the pending request; undefined when none is pending. */
  get pendingRank(): number | undefined {
    return this.rank;
  }

  /** Epoch ms of the oldest request of the pending rank coalesced into the pending one (fairness within a rank). */
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
    if (this.urgent || this.followsYielding()) return this.notBefore;
    return Math.max(this.notBefore, this.lastStartAt + this.minIntervalMs);
  }

  /** True when the pending request outranks a yielding one started last. */
  private followsYielding(): boolean {
    return this.rank !== undefined && this.rank < this.yieldingRank && this.lastStartRank !== undefined && this.lastStartRank >= this.yieldingRank;
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
    this.beforeStart = { rank, since: this.since, urgent: this.urgent, lastStartAt: this.lastStartAt, lastStartRank: this.lastStartRank };
    // A skip of the interval counts as a yielding start's: the next one waits the interval again.
    this.lastStartRank = this.followsYielding() ? undefined : rank;
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
    this.lastStartRank = before.lastStartRank;
    // The more urgent rank keeps its own time; the same rank the older one.
    if (this.rank === undefined || before.rank < this.rank) this.since = before.since;
    else if (before.rank === this.rank) this.since = Math.min(before.since, this.since);
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
