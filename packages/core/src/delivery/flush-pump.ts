import type { Clock } from '../shared/clock.js';
import type { FlushQueue } from './flush-queue.js';

/** What the pump flushes: anything that owns a {@link FlushQueue}. */
export interface Flushable {
  readonly flushQueue: FlushQueue;
}

/** The shared gate every flush passes: one budget, which may be paused. */
export interface FlushGate {
  /** Resolves when one request may start. */
  acquire(): Promise<void>;
  /** Epoch ms until which no request may start; 0 when open (synchronously when known). */
  pausedUntil(): Promise<number> | number;
}

/**
 * Runs the flushes of many cards through one gate (a channel's budget). When more cards are ready
 * than the gate lets through, the lowest rank goes first, then the oldest request within a rank.
 * A wake timer restarts the pump when the next card becomes ready; it keeps the process alive only
 * while an urgent request waits. Business-free: `flush` decides what a flush sends.
 */
export class FlushPump<T extends Flushable> {
  private readonly pending = new Set<T>();
  private pumping = false;
  private wakeTimer: NodeJS.Timeout | undefined;
  private wakeAt = Number.POSITIVE_INFINITY;
  private readonly idleWaiters = new Set<() => void>();
  private inFlightCount = 0;

  /** `flush(item, rank)` must not reject; `clock` is wall time (timers run on it). */
  constructor(
    private readonly gate: FlushGate,
    private readonly clock: Clock,
    private readonly flush: (item: T, rank: number) => Promise<void>,
  ) {}

  /** Queues a flush of `item` (see {@link FlushQueue.request}) and starts what the gate allows. */
  request(item: T, rank: number, urgent = false): void {
    item.flushQueue.request(rank, this.clock.now(), urgent);
    this.pending.add(item);
    void this.pump();
  }

  /** Cards with a pending or in-flight flush. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Flushes in flight now. */
  get inFlight(): number {
    return this.inFlightCount;
  }

  /** True while a wake timer is set. */
  get wakeTimerPending(): boolean {
    return this.wakeTimer !== undefined;
  }

  /** Resolves when no card has a flush pending or in flight. */
  idle(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.add(resolve));
  }

  /** Stops the wake timer (flushes in flight finish on their own). */
  dispose(): void {
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    this.wakeAt = Number.POSITIVE_INFINITY;
  }

  /** The ready card to flush next: lowest rank, then oldest request. A scan over the pending cards. */
  pickNext(now: number): T | undefined {
    let best: T | undefined;
    let bestRank = Number.POSITIVE_INFINITY;
    let bestSince = Number.POSITIVE_INFINITY;
    for (const item of this.pending) {
      const queue = item.flushQueue;
      if (queue.readyAt() > now) continue;
      const rank = queue.pendingRank!;
      if (rank < bestRank || (rank === bestRank && queue.pendingSince < bestSince)) {
        best = item;
        bestRank = rank;
        bestSince = queue.pendingSince;
      }
    }
    return best;
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (;;) {
        if (!this.pickNext(this.clock.now())) break;
        const paused = this.gate.pausedUntil();
        if ((typeof paused === 'number' ? paused : await paused) > this.clock.now()) break;
        await this.gate.acquire();
        const item = this.pickNext(this.clock.now());
        if (item) void this.run(item);
      }
    } finally {
      this.pumping = false;
    }
    await this.scheduleWake();
  }

  private async run(item: T): Promise<void> {
    const queue = item.flushQueue;
    const rank = queue.start(this.clock.now());
    this.inFlightCount += 1;
    try {
      await this.flush(item, rank);
    } catch {
      // `flush` must not reject; if it does anyway, the card is settled like any other.
    } finally {
      this.inFlightCount -= 1;
      queue.settle();
      if (queue.pendingRank === undefined) this.pending.delete(item);
      if (this.pending.size === 0) this.resolveIdle();
      void this.pump();
    }
  }

  private async scheduleWake(): Promise<void> {
    const paused = this.gate.pausedUntil();
    const pausedUntil = typeof paused === 'number' ? paused : await paused;
    let next = Number.POSITIVE_INFINITY;
    let urgentWaiting = false;
    for (const item of this.pending) {
      const queue = item.flushQueue;
      if (queue.inFlight) continue;
      next = Math.min(next, queue.readyAt());
      urgentWaiting ||= queue.isUrgent;
    }
    if (next === Number.POSITIVE_INFINITY) return;
    next = Math.max(next, pausedUntil);
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
    }, Math.max(0, next - this.clock.now()));
    if (!urgentWaiting) this.wakeTimer.unref();
  }

  private resolveIdle(): void {
    for (const resolve of this.idleWaiters) resolve();
    this.idleWaiters.clear();
  }
}
