import { systemClock, type Clock } from '../../shared/clock.js';
import type { BudgetKey, BudgetWindow } from '../../plugin/contract.js';
import { burstSpacingMs, DEFAULT_SLOT_RANK, rankLimit, SLOT_RANK_POLICY, type SlotRank } from './slot-ranks.js';

/** What {@link BudgetStore.reserve} is asked for: one call drawing from every key at once. */
export interface SlotRequest {
  /** The budgets the call draws from (see `ChannelPlugin.budgetKeys`); all must allow it. */
  readonly keys: readonly BudgetKey[];
  /** Epoch ms before which the call cannot leave (usually now). */
  readonly notBefore: number;
  /**
   * Expected ms from the call leaving to the platform counting it (about half a round trip, more
   * while requests queue in the HTTP agent). The platform counts calls when they arrive; since a
   * call may arrive anywhere from at once to twice as late, windows are widened by it as well.
   */
  readonly arrivalDelayMs: number;
  /** How much the call matters (default `structural`): see {@link SlotRank} and `SLOT_RANK_POLICY`. */
  readonly rank?: SlotRank;
  /**
   * The arrival (epoch ms: its departure plus its `arrivalDelayMs`) the store recorded for an earlier
   * reservation of this call under the same keys that went unused: the call could not leave within
   * {@link lateDepartureToleranceMs} of it (a stalled event loop, a slow store round trip). The store
   * uncounts it under every key of the request, atomically with this reservation; an arrival it does
   * not hold (forgotten, or recorded with another delay) is ignored: it stays counted, which only
   * costs a slot. Only for {@link BudgetStore.reserve}.
   */
  readonly replacesArrival?: number;
  /**
   * For a `first-card` request: the caller's other cards still waiting for their first message on
   * this route. Each needs one new message, its first card or, when its run ends first, its final;
   * so a first card leaves one slot of each long window (a minute or more) for each of them, on top
   * of the rank's share (see `rankLimit`): a burst of runs past a minute's limit then sends fewer
   * first cards, and the runs that end before theirs was sent get their finals at once. Ignored for
   * other ranks.
   */
  readonly unsentCards?: number;
}

/**
 * Where the API budgets live. Every card of every composition that uses one store draws from the
 * same keys, so one store given to two compositions (through a parent container) keeps their calls
 * within the platform's limits together. Async-capable so that a shared store (e.g. Redis) can
 * implement it.
 *
 * Contract of an implementation (a distributed one must keep it across processes):
 * - {@link reserve} is atomic over all keys of a request: it picks the earliest departure
 *   `t ≥ notBefore` at which every key allows one more call, records the call under every key and
 *   returns `t`; two concurrent reservations never get the same slot of a key.
 * - A call is counted at its expected arrival `t + arrivalDelayMs`, not at `t`.
 * - No window ever holds more than its `limit` arrivals, each window widened by
 *   {@link budgetSafetyMarginMs} plus the request's `arrivalDelayMs` (the latency margin: arrival
 *   jitter up to that much cannot push an extra call into a window).
 * - Ranks (`SLOT_RANK_POLICY`), the same in every process: a key keeps a paced schedule (one
 *   call per `max(window.intervalMs / limit)`, widened). Paced ranks (`structural`, `progress`)
 *   wait for it; bursting ranks (`final`, `first-card`) may run ahead of it at the rate of the
 *   key's fastest window while every window has room, and each call they make pushes the schedule
 *   back one spacing (the paced ranks pay it back). A rank leaves the last slots of each shared
 *   window (see `rankLimit`; first cards a fifth of a long window) to the ranks above it. Arrivals of a key stay in reservation order.
 * - A key paused with {@link pauseUntil} gives no departure before the pause ends.
 * - A request's `replacesArrival` is uncounted under its keys before the new slot is picked.
 * - State of a key whose last arrival is older than its longest window may be forgotten.
 */
export interface BudgetStore {
  /**
   * True when {@link reserve} resolves only once its slot is due (a store that queues each call until
   * it may leave, as a p-throttle does), so the time it takes to answer is waiting, not latency: the
   * caller then books no slot ahead to cover the store's round trip. Default false (the in-memory
   * and Redis stores answer at once with a departure that may lie ahead).
   */
  readonly answersWhenDue?: boolean;
  /**
   * Reserves one call under every key of `request`; resolves with the epoch ms at which it may leave.
   * @throws Error (as a rejection) when a window's `limit` or `intervalMs` is not a positive integer.
   */
  reserve(request: SlotRequest): Promise<number> | number;
  /**
   * The departure {@link reserve} would give now, without reserving it (a hint: the core waits for
   * it before it picks the most urgent card, then reserves).
   */
  nextDeparture(request: SlotRequest): Promise<number> | number;
  /** No call under `key` departs before `epochMs` (a later pause wins). */
  pauseUntil(key: string, epochMs: number): Promise<void>;
}

/** Extra ms added to a budget window against network jitter: 2 % of it, at least 50 ms. */
export function budgetSafetyMarginMs(intervalMs: number): number {
  return Math.max(50, Math.round(intervalMs * 0.02));
}

/**
 * Ms a call may leave after the departure its reservation gave and still use that slot: half the
 * smallest {@link budgetSafetyMarginMs} of the windows (25 ms for windows up to 2.5 s). The store
 * counts a call at its departure plus the arrival delay, the platform when it arrives: a call that
 * leaves later than this after its slot re-books (`SlotRequest.replacesArrival`), or it could arrive
 * in a window that other calls have filled since (a one-second window of 50 calls is full 50 ms
 * after its limit, at the paced rate). The other half of the margin is left to network jitter.
 */
export function lateDepartureToleranceMs(keys: readonly BudgetKey[]): number {
  let margin = Number.POSITIVE_INFINITY;
  for (const { windows } of keys) for (const window of windows) margin = Math.min(margin, budgetSafetyMarginMs(window.intervalMs));
  return margin === Number.POSITIVE_INFINITY ? 0 : margin / 2;
}

/**
 * Least ms between two calls under one key with these windows: the steady rate that respects every
 * window, each widened by {@link budgetSafetyMarginMs} (Feishu 50/s + 1000/min → 61.2 ms, 16.3/s).
 */
export function pacingIntervalMs(windows: readonly BudgetWindow[]): number {
  let spacing = 0;
  for (const window of windows) spacing = Math.max(spacing, (window.intervalMs + budgetSafetyMarginMs(window.intervalMs)) / window.limit);
  return spacing;
}

/** @throws Error naming the window and field when a limit or interval is not a positive integer. */
function checkBudgetWindows(key: string, windows: readonly BudgetWindow[]): void {
  if (windows.length === 0) throw new Error(`budget key ${key}: windows must not be empty`);
  for (const [index, window] of windows.entries()) {
    for (const field of ['limit', 'intervalMs'] as const) {
      const value = window[field];
      if (!Number.isSafeInteger(value) || value <= 0) {
        throw new Error(`budget key ${key}: windows[${index}].${field} must be a positive integer, got ${JSON.stringify(value)}`);
      }
    }
  }
}

function sameWindows(a: readonly BudgetWindow[], b: readonly BudgetWindow[]): boolean {
  return a.length === b.length && a.every((window, i) => window.limit === b[i]!.limit && window.intervalMs === b[i]!.intervalMs);
}

/** The paced budget of one key: its windows (widened) and the arrival times it counted, oldest first. */
class KeyPacer {
  private windows: readonly { readonly limit: number; readonly spanMs: number; readonly intervalMs: number }[] = [];
  private spacingMs = 0;
  /** Longest widened window, ms: arrivals older than this no longer matter. */
  horizonMs = 0;
  /** The windows as given, to notice a change. */
  private given: readonly BudgetWindow[] = [];
  /** Arrival times, oldest first, from index `head` on. */
  private arrivals: number[] = [];
  private head = 0;
  /** The paced schedule: earliest arrival of a paced rank's next call (bursts push it back). */
  private pacedAt = Number.NEGATIVE_INFINITY;
  pausedUntil = 0;

  constructor(
    private readonly key: string,
    windows: readonly BudgetWindow[],
  ) {
    this.follow(windows);
  }

  /**
   * Paces by `windows` from now on when they differ from the current ones (limits a platform
   * announced at run time); the arrivals counted so far stay counted.
   * @throws Error when a window's `limit` or `intervalMs` is not a positive integer.
   */
  follow(windows: readonly BudgetWindow[]): void {
    if (windows === this.given || sameWindows(windows, this.given)) return;
    checkBudgetWindows(this.key, windows);
    this.given = windows;
    this.windows = windows.map((window) => ({ limit: window.limit, spanMs: window.intervalMs + budgetSafetyMarginMs(window.intervalMs), intervalMs: window.intervalMs }));
    this.spacingMs = pacingIntervalMs(windows);
    this.horizonMs = Math.max(...this.windows.map((window) => window.spanMs));
  }

  get lastArrival(): number {
    return this.arrivals.at(-1) ?? Number.NEGATIVE_INFINITY;
  }

  /** Epoch ms after which the key's state no longer matters. */
  get lastUse(): number {
    return Math.max(this.lastArrival, this.pacedAt);
  }

  /**
   * Earliest arrival ≥ `arrival` this key allows a call of `rank`, every window widened by
   * `latencyMarginMs` more; `unsentCards` as in `SlotRequest.unsentCards`.
   */
  earliestArrival(arrival: number, latencyMarginMs: number, rank: SlotRank, unsentCards = 0): number {
    const arrivals = this.arrivals;
    const count = arrivals.length - this.head;
    const last = this.lastArrival;
    let at = Math.max(arrival, last + burstSpacingMs(this.windows, latencyMarginMs));
    // A key of one window has no burst capacity beyond its pace (DingTalk's 20/s): every rank is paced.
    if (!SLOT_RANK_POLICY[rank].burst || this.windows.length < 2) {
      at = Math.max(at, this.pacedAt, last + this.spacingMs);
      for (const window of this.windows) at = Math.max(at, last + (window.spanMs + latencyMarginMs) / window.limit);
    }
    for (const window of this.windows) {
      const limit = rankLimit(window.limit, rank, window.intervalMs, unsentCards);
      if (count >= limit) at = Math.max(at, arrivals[arrivals.length - limit]! + window.spanMs + latencyMarginMs);
    }
    return at;
  }

  /** Uncounts the latest recorded arrival at exactly `arrival` (a reservation that went unused); false when none is held. */
  unrecord(arrival: number): boolean {
    const index = this.arrivals.lastIndexOf(arrival);
    if (index < this.head) return false;
    this.arrivals.splice(index, 1);
    return true;
  }

  /** Counts a call arriving at `arrival`; forgets arrivals older than every window (amortized O(1)). */
  record(arrival: number): void {
    const arrivals = this.arrivals;
    arrivals.push(arrival);
    this.pacedAt = Math.max(this.pacedAt, arrival) + this.spacingMs;
    const keepAfter = arrival - 2 * this.horizonMs;
    while (this.head < arrivals.length - 1 && arrivals[this.head]! < keepAfter) this.head += 1;
    if (this.head > 1024 && this.head * 2 > arrivals.length) {
      this.arrivals = arrivals.slice(this.head);
      this.head = 0;
    }
  }
}

/**
 * The default {@link BudgetStore}: paced budgets in this process's memory, created on a key's first
 * reservation; a key whose windows change later (limits learned at run time) is paced by the
 * latest ones. Share one instance between compositions to share their budgets. Keys idle for longer than their longest window are forgotten.
 */
export class InMemoryBudgetStore implements BudgetStore {
  private readonly pacers = new Map<string, KeyPacer>();
  private readonly pauses = new Map<string, number>();
  private reservations = 0;

  /** `clock` (default the wall clock) decides when idle keys are forgotten; platform limits are in wall time. */
  constructor(private readonly clock: Clock = systemClock) {}

  /** @throws Error when a window's `limit` or `intervalMs` is not a positive integer. */
  reserve(request: SlotRequest): number {
    const pacers = request.keys.map(({ key, windows }) => this.pacer(key, windows));
    const delay = Math.max(0, request.arrivalDelayMs);
    if (request.replacesArrival !== undefined) for (const pacer of pacers) pacer.unrecord(request.replacesArrival);
    const departure = this.departure(pacers, request.notBefore, delay, request.rank ?? DEFAULT_SLOT_RANK, request.unsentCards);
    for (const pacer of pacers) pacer.record(departure + delay);
    this.reservations += 1;
    if (this.reservations % 4096 === 0) this.forgetIdle();
    return departure;
  }

  /** @throws Error when a window's `limit` or `intervalMs` is not a positive integer. */
  nextDeparture(request: SlotRequest): number {
    const pacers = request.keys.map(({ key, windows }) => this.pacer(key, windows));
    return this.departure(pacers, request.notBefore, Math.max(0, request.arrivalDelayMs), request.rank ?? DEFAULT_SLOT_RANK, request.unsentCards);
  }

  private departure(pacers: readonly KeyPacer[], notBefore: number, delay: number, rank: SlotRank, unsentCards = 0): number {
    let departure = notBefore;
    for (const pacer of pacers) departure = Math.max(departure, pacer.pausedUntil);
    // Each key's earliest arrival only grows with the candidate, so this settles in a few rounds.
    for (let round = 0; round < 16; round += 1) {
      let next = departure;
      for (const pacer of pacers) next = Math.max(next, pacer.earliestArrival(departure + delay, delay, rank, unsentCards) - delay);
      if (next === departure) break;
      departure = next;
    }
    return departure;
  }

  async pauseUntil(key: string, epochMs: number): Promise<void> {
    this.pauses.set(key, Math.max(this.pauses.get(key) ?? 0, epochMs));
    const pacer = this.pacers.get(key);
    if (pacer) pacer.pausedUntil = Math.max(pacer.pausedUntil, epochMs);
  }

  /** Keys with budget state now (for tests and diagnostics). */
  get keyCount(): number {
    return this.pacers.size;
  }

  private pacer(key: string, windows: readonly BudgetWindow[]): KeyPacer {
    let pacer = this.pacers.get(key);
    pacer?.follow(windows);
    if (!pacer) {
      pacer = new KeyPacer(key, windows);
      pacer.pausedUntil = this.pauses.get(key) ?? 0;
      this.pacers.set(key, pacer);
    }
    return pacer;
  }

  private forgetIdle(): void {
    const now = this.clock.now();
    for (const [key, pacer] of this.pacers) {
      if (pacer.lastUse < now - pacer.horizonMs && pacer.pausedUntil <= now) {
        this.pacers.delete(key);
        this.pauses.delete(key);
      }
    }
  }
}
