import { timerDelay } from '../../shared/timer-duration.js';
import type { Clock } from '../../shared/clock.js';
import type { Flushable, FlushGate, PreparedCall } from './flush-calls.js';
import { PriorityQueue } from './priority-queue.js';
import { ReadyLanes, type Lane } from './ready-lanes.js';
import { Departures } from './departures.js';
import { PendingLanes } from './pending-lanes.js';

/** Cards of one lane tried per pump round when the most urgent one's budget has no slot yet. */
const CANDIDATES_PER_ROUND = 3;

/** A card in one of the pump's heaps; stale once the card's `version` moved on. */
interface Entry<T> {
  readonly item: T;
  readonly version: number;
  /** Where the card stands in its lane: `orderOf(item, rank)` (lower first). */
  readonly order: number;
  readonly since: number;
  readonly readyAt: number;
  readonly seq: number;
  /** The budget the card's next call draws from first (see {@link ReadyLanes}). */
  readonly lane: string;
}

/** Ms a card waits before trying again when the budget store failed. */
const STORE_RETRY_MS = 1000;

/**
 * Runs the flushes of many cards through the channel's budgets. Ready cards wait in one heap per
 * lane (the budget their next call draws from first, e.g. the API route: sends and updates have
 * separate budgets on most platforms) by order (`orderOf`, by default the rank; lower first) then request age; cards not ready yet
 * (minimum interval, backoff) wait in a heap by ready time; all O(log n) per change. A flush first
 * `prepare`s (renders; nothing to send takes no slot). When the call's budgets have a slot now, it
 * is reserved and the call leaves; otherwise the card goes back (up to {@link CANDIDATES_PER_ROUND}
 * cards of a lane are tried, so a card waiting on its own chat's limit does not hold the others),
 * the lane waits for its earliest slot and the other lanes go on: a full route never holds back
 * calls of a route with room. At slot time the most urgent card of the lane gets the slot. A wake
 * timer restarts the pump; timers keep the process alive only while an urgent request waits or
 * someone awaits {@link idle} (a script that ends with `await cards.idle()` must not exit with Node's
 * unsettled top-level await, code 13, while progressive refreshes wait for their time).
 * Business-free: `prepare` decides what a flush sends, `laneOf` guesses the lane of its call (a
 * wrong guess costs one render: the card moves to the lane its call drew from).
 */
export class FlushPump<T extends Flushable> {
  private readonly pending = new Set<T>();
  /** The pending cards per lane they wait in. */
  private readonly lanes = new PendingLanes<T>();
  private readonly urgent = new Set<T>();
  private readonly versions = new WeakMap<T, number>();
  private readonly ready = new ReadyLanes<Entry<T>>(
    (a, b) => a.order < b.order || (a.order === b.order && (a.since < b.since || (a.since === b.since && a.seq < b.seq))),
    (entry) => this.isStale(entry),
  );
  /** Lanes learnt from a prepared call that went elsewhere than `laneOf` guessed, until the card's next call leaves. */
  private readonly learntLanes = new WeakMap<T, string>();
  private readonly waiting = new PriorityQueue<Entry<T>>((a, b) => a.readyAt < b.readyAt || (a.readyAt === b.readyAt && a.seq < b.seq));
  private seq = 0;
  private pumping = false;
  private pumpAgain = false;
  private slotBlocked = false;
  private reserving = 0;
  private wakeTimer: NodeJS.Timeout | undefined;
  private wakeAt = Number.POSITIVE_INFINITY;
  private readonly idleWaiters = new Set<() => void>();
  /** Calls with a slot, waiting for their departure (timers of non-urgent ones unref'd unless someone awaits {@link idle}). */
  private readonly departures: Departures;
  private inFlightCount = 0;
  /** Calls that left and wait for their answer. */
  private sending = 0;

  /**
   * `prepare(item, rank)` returns the call to make, or undefined when there is nothing to send (it
   * must not throw, and has no effect when it returns a call); `clock` is wall time (timers run on it);
   * `laneOf(item)` names the first budget key of the item's next call, cheaply (default: one lane);
   * `orderOf(item, rank)` places a ready card in its lane and among the lanes, lower first, then
   * the oldest request (default: its rank; e.g. a card's first message ahead of other cards' updates).
   */
  constructor(
    private readonly gate: FlushGate,
    private readonly clock: Clock,
    private readonly prepare: (item: T, rank: number) => PreparedCall | undefined,
    private readonly laneOf: (item: T) => string = () => '',
    private readonly orderOf: (item: T, rank: number) => number = (_item, rank) => rank,
  ) {
    this.departures = new Departures(gate, clock);
  }

  /** Queues a flush of `item` (see {@link FlushQueue.request}) and starts what the budgets allow. */
  request(item: T, rank: number, urgent = false): void {
    const queue = item.flushQueue;
    const before = queue.pendingRank;
    const wasUrgent = queue.isUrgent;
    queue.request(rank, this.clock.now(), urgent);
    this.pending.add(item);
    if (queue.isUrgent) this.urgent.add(item);
    // Nothing new to schedule while the card is in flight or its request did not change.
    if (queue.inFlight || (before === queue.pendingRank && wasUrgent === queue.isUrgent)) return;
    this.index(item, true);
    // After the caller's synchronous work: events pushed together render once, with all of them.
    queueMicrotask(() => void this.pump());
  }

  /** The cards with a pending or in-flight flush. */
  pendingItems(): T[] {
    return [...this.pending];
  }

  /** Cards with a pending or in-flight flush. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Cards with a pending or in-flight flush whose call draws from `lane` first (as last filed). */
  pendingIn(lane: string): number {
    return this.lanes.count(lane);
  }

  /** Cards with a flush pending whose call has not left yet (waiting for their time or a slot). */
  get backlog(): number {
    return this.pending.size - this.sending;
  }

  /** Flushes in flight now (from preparing through the call's answer). */
  get inFlight(): number {
    return this.inFlightCount;
  }

  /** True while a ready card waits because its budget has no slot yet (the budget is the bottleneck). */
  get waitingForSlot(): boolean {
    return this.slotBlocked;
  }

  /** True while a wake timer is set. */
  get wakeTimerPending(): boolean {
    return this.wakeTimer !== undefined;
  }

  /** Resolves when no card has a flush pending or in flight. */
  idle(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    // Awaiting idle keeps the process alive until it resolves: the timers it waits for are ref'd.
    this.wakeTimer?.ref();
    this.departures.keepAlive(true);
    return new Promise((resolve) => this.idleWaiters.add(resolve));
  }

  /** Stops the wake timer (flushes in flight finish on their own). */
  dispose(): void {
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    this.wakeAt = Number.POSITIVE_INFINITY;
  }

  /**
   * Removes and returns the ready card of `lane` to flush next: lowest order, then oldest request.
   * O(log n) per card that became ready or was re-requested since the last call.
   */
  private pickNext(lane: Lane<Entry<T>>, now: number): T | undefined {
    this.promoteDue(now);
    for (let entry = lane.heap.pop(); entry; entry = lane.heap.pop()) {
      if (this.isStale(entry)) continue;
      if (entry.item.flushQueue.readyAt() > now) {
        this.index(entry.item);
        continue;
      }
      return entry.item;
    }
    return undefined;
  }

  /** The lane to try next (see {@link ReadyLanes.next}), once the cards whose time came are in their lanes. */
  private nextLane(): Lane<Entry<T>> | undefined {
    const now = this.clock.now();
    this.promoteDue(now);
    return this.ready.next(now);
  }

  /** Moves the waiting cards whose time came into their lanes. */
  private promoteDue(now: number): void {
    for (let entry = this.waiting.peek(); entry && (this.isStale(entry) || entry.readyAt <= now); entry = this.waiting.peek()) {
      this.waiting.pop();
      if (!this.isStale(entry)) this.ready.push(entry.lane, entry);
    }
  }

  /**
   * Files `item` (pending, not in flight) under a new version in its lane or the waiting heap.
   * `fresh`: a new or renewed request (tried at once when it is the most urgent of its lane).
   */
  private index(item: T, fresh = false): void {
    const queue = item.flushQueue;
    const rank = queue.pendingRank;
    if (rank === undefined || queue.inFlight) return;
    const version = (this.versions.get(item) ?? 0) + 1;
    this.versions.set(item, version);
    const lane = this.learntLanes.get(item) ?? this.laneOf(item);
    this.lanes.file(item, lane);
    const entry: Entry<T> = { item, version, order: this.orderOf(item, rank), since: queue.pendingSince, readyAt: queue.readyAt(), seq: this.seq++, lane };
    if (entry.readyAt <= this.clock.now()) this.ready.push(lane, entry, fresh);
    else this.waiting.push(entry);
  }

  private isStale(entry: Entry<T>): boolean {
    const queue = entry.item.flushQueue;
    return entry.version !== this.versions.get(entry.item) || queue.inFlight || queue.pendingRank === undefined;
  }

  private async pump(): Promise<void> {
    if (this.pumping) {
      // The running round may have decided already: it goes round once more.
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    let slotAt = Number.POSITIVE_INFINITY;
    try {
      for (this.pumpAgain = true; this.pumpAgain && this.reserving === 0; ) {
        this.pumpAgain = false;
        slotAt = Number.POSITIVE_INFINITY;
        await this.round((at) => (slotAt = at));
      }
    } finally {
      this.pumping = false;
    }
    this.slotBlocked = slotAt < Number.POSITIVE_INFINITY || this.reserving > 0;
    this.scheduleWake(slotAt);
  }

  /** Sends what the budgets allow now; reports the earliest slot when the cards must wait for one. */
  private async round(waitFor: (slotAt: number) => void): Promise<void> {
    while (this.reserving === 0) {
      const chosen = await this.choose();
      if (!chosen) break;
      if ('slotAt' in chosen) {
        waitFor(chosen.slotAt);
        break;
      }
      const { item, call, rank } = chosen;
      this.reserving += 1;
      let departure: number;
      try {
        const reserved = this.gate.reserve(call.keys, rank);
        departure = typeof reserved === 'number' ? reserved : await reserved;
      } catch {
        // The budget store failed: never call without a slot; try this card again later.
        this.reserving -= 1;
        item.flushQueue.notBeforeTime(this.clock.now() + STORE_RETRY_MS);
        this.settled(item);
        this.request(item, rank);
        continue;
      }
      this.departures.leaveAt(call.keys, rank, departure, (waited) => {
        this.reserving -= 1;
        void this.run(item, call);
        if (waited) void this.pump();
      });
    }
  }

  /**
   * The ready card whose call may leave now (started and prepared), or the earliest slot when the
   * cards tried must wait for one (they go back), or undefined when no card is ready. Lanes are
   * tried most urgent first; a lane whose cards must wait is not tried again before its slot.
   */
  private async choose(): Promise<{ item: T; call: PreparedCall; rank: number } | { slotAt: number } | undefined> {
    // Each lane tried either gives a card, waits for its slot, or has fewer cards (settled, moved).
    for (;;) {
      const putBack: T[] = [];
      try {
        for (let lane = this.nextLane(); lane; lane = this.nextLane()) {
          const chosen = await this.chooseIn(lane, putBack);
          if (chosen) return chosen;
        }
      } finally {
        for (const item of putBack) this.index(item);
      }
      // Cards that moved to a lane with room are tried at once.
      if (!this.nextLane()) break;
    }
    // Read without a second look at the clock: a lane whose slot came meanwhile wakes the pump at once.
    const slotAt = this.ready.earliestSlot();
    return slotAt < Number.POSITIVE_INFINITY ? { slotAt } : undefined;
  }

  /** The card of `lane` whose call may leave now; else marks the lane busy until its earliest slot. */
  private async chooseIn(lane: Lane<Entry<T>>, putBack: T[]): Promise<{ item: T; call: PreparedCall; rank: number } | undefined> {
    let slotAt = Number.POSITIVE_INFINITY;
    for (let waiting = 0; waiting < CANDIDATES_PER_ROUND; ) {
      const now = this.clock.now();
      const item = this.pickNext(lane, now);
      if (!item) break;
      const queue = item.flushQueue;
      const rank = queue.start(now);
      this.inFlightCount += 1;
      let call: PreparedCall | undefined;
      try {
        call = this.prepare(item, rank);
      } catch {
        // `prepare` must not throw; if it does anyway, the card is settled like any other.
      }
      if (!call) {
        this.settled(item);
        continue;
      }
      let departure: number;
      try {
        const next = this.gate.nextDeparture(call.keys, rank);
        departure = typeof next === 'number' ? next : await next;
      } catch {
        departure = this.clock.now();
      }
      // Timers have 1 ms resolution: a slot due within it is due now (the budget's margins cover it).
      if (departure < this.clock.now() + 1) {
        this.urgent.delete(item);
        this.learntLanes.delete(item);
        return { item, call, rank };
      }
      queue.unstart();
      this.inFlightCount -= 1;
      putBack.push(item);
      waiting += 1;
      const callLane = call.keys[0]?.key ?? '';
      // The call draws from another lane than guessed: the card waits there (that lane's slot is its own business).
      if (callLane !== lane.name) {
        this.learntLanes.set(item, callLane);
        this.lanes.file(item, callLane);
      }
      else slotAt = Math.min(slotAt, departure);
    }
    if (slotAt < Number.POSITIVE_INFINITY) lane.blockedUntil = slotAt;
    return undefined;
  }

  private async run(item: T, call: PreparedCall): Promise<void> {
    this.sending += 1;
    try {
      await call.send();
    } catch {
      // `send` must not reject; if it does anyway, the card is settled like any other.
    } finally {
      this.sending -= 1;
      this.settled(item);
      void this.pump();
    }
  }

  /** The card's flush is over: file it again when more is pending, else forget it. */
  private settled(item: T): void {
    this.inFlightCount -= 1;
    const queue = item.flushQueue;
    queue.settle();
    if (queue.pendingRank === undefined) {
      this.pending.delete(item);
      this.lanes.drop(item);
      this.urgent.delete(item);
    } else this.index(item, true);
    if (this.pending.size === 0) this.resolveIdle();
  }

  /** Sets the wake timer for the earliest of `slotAt` (a budget slot) and the next card's ready time. */
  private scheduleWake(slotAt: number): void {
    let top = this.waiting.peek();
    while (top && this.isStale(top)) {
      this.waiting.pop();
      top = this.waiting.peek();
    }
    if (this.reserving > 0) return;
    const next = Math.min(slotAt, top?.readyAt ?? Number.POSITIVE_INFINITY);
    if (next === Number.POSITIVE_INFINITY) return;
    const urgentWaiting = this.urgent.size > 0 || this.idleWaiters.size > 0;
    if (this.wakeTimer && this.wakeAt <= next) {
      // An earlier wake-up set for progressive refreshes must now keep the process alive too.
      if (urgentWaiting) this.wakeTimer.ref();
      return;
    }
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeAt = next;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.wakeAt = Number.POSITIVE_INFINITY;
      void this.pump();
    }, timerDelay(next - this.clock.now()));
    if (!urgentWaiting) this.wakeTimer.unref();
  }

  private resolveIdle(): void {
    for (const resolve of this.idleWaiters) resolve();
    this.idleWaiters.clear();
    this.departures.keepAlive(false);
    if (this.urgent.size === 0) this.wakeTimer?.unref();
  }
}
