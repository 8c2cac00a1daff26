import { sleepMs } from '../../shared/timer-duration.js';
import type { BudgetKey, BudgetedCall, ChannelPlugin, ChannelSettings } from '../../plugin/contract.js';
import type { Clock } from '../../shared/clock.js';
import { ArrivalDelayEstimate } from './arrival-delay.js';
import { lateDepartureToleranceMs, pacingIntervalMs, type BudgetStore } from './budget-store.js';
import type { BookedSlot, FlushGate } from '../schedule/flush-calls.js';
import { CHANGE_OF_RANK } from '../card-delivery-record.js';
import type { SlotRank } from './slot-ranks.js';

/**
 * Looks of {@link ChannelBudget.acquire} for a slot due now before it books the next one ahead: the
 * first waits for the key that binds, the second for the route's next slot; pump cards may take
 * that slot first, so the third reserves whatever comes next (a call outside the pump never
 * starves behind a saturated route).
 */
const ACQUIRE_LOOKS = 3;

/** The store's rank of a flush by the change it shows (a send that is not a final: `first-card`). */
const SLOT_RANK_OF_CHANGE = { terminal: 'final', structural: 'structural', text: 'progress', elapsed: 'progress' } as const satisfies Record<(typeof CHANGE_OF_RANK)[number], SlotRank>;

/**
 * A channel's view of its budgets: which keys a call draws from (the plugin's `budgetKeys`, or
 * one key with the channel's budget), slots from the {@link BudgetStore} counted at the expected
 * arrival, and the arrival delay learnt from the calls' round trips.
 */
export class ChannelBudget implements FlushGate {
  /** Cards that may wait for a slot before the channel counts as under pressure. */
  readonly roomyBacklog: number;
  /** Expected ms from a call leaving to the platform counting it. */
  private readonly arrivalDelay = new ArrivalDelayEstimate();
  /**
   * Smoothed ms from asking the store for a slot to its answer (0 while the store answers at once,
   * as the in-memory one does): a call cannot leave before the answer, so it books a slot at least
   * this far ahead (a slot due when booked would be stale when a slow Redis answers). Stays 0 for a
   * store that answers only once the slot is due ({@link BudgetStore.answersWhenDue}).
   */
  private storeRoundTripMs = 0;
  private readonly defaultKey: string;
  private readonly lanes = new Map<'send' | 'update', string>();
  /** The kind of call each key list from {@link keysOf} was made for (to rank its reservations). */
  private readonly kinds = new WeakMap<readonly BudgetKey[], BudgetedCall['kind']>();
  /**
   * Cards of the channel waiting to send a new message on the route `lane` (their first card, or a
   * final of a card without one), the one asking included: set by the dispatcher (see
   * `SlotRequest.unsentCards`).
   */
  cardsToSend: (lane: string) => number = () => 0;

  constructor(
    private readonly plugin: ChannelPlugin,
    private readonly settings: ChannelSettings,
    private readonly store: BudgetStore,
    private readonly clock: Clock,
  ) {
    this.defaultKey = plugin.budgetKey ?? plugin.id;
    this.roomyBacklog = Math.max(1, Math.floor(settings.perCardIntervalMs / pacingIntervalMs(settings.budget)));
  }

  /**
   * The first budget key of a main-message call of this kind (the API route the pump queues cards
   * by), for the channel's default target. Cached per kind: a route does not depend on the card.
   */
  laneOf(kind: 'send' | 'update'): string {
    let lane = this.lanes.get(kind);
    if (lane === undefined) {
      const call: BudgetedCall = kind === 'update' ? { kind, target: undefined, message: { id: '' } } : { kind, target: undefined };
      lane = this.keysOf(call)[0]?.key ?? '';
      this.lanes.set(kind, lane);
    }
    return lane;
  }

  /** The budgets of one call. */
  keysOf(call: BudgetedCall): readonly BudgetKey[] {
    const keys = this.plugin.budgetKeys ? this.plugin.budgetKeys(call as BudgetedCall<never>, this.settings) : [{ key: this.defaultKey, windows: this.settings.budget }];
    this.kinds.set(keys, call.kind);
    return keys;
  }

  /**
   * The store's rank of a flush whose call draws from `keys` (from {@link keysOf}) and shows a
   * change of flush rank `rank` (see `CHANGE_RANK`): a final stays `final`, any other new message is
   * a `first-card`, updates rank by their change.
   */
  slotRank(keys: readonly BudgetKey[], rank: number | undefined): SlotRank {
    const change = rank === undefined ? 'structural' : (CHANGE_OF_RANK[rank] ?? 'elapsed');
    if (change !== 'terminal' && this.kinds.get(keys) === 'send') return 'first-card';
    return SLOT_RANK_OF_CHANGE[change];
  }

  reserve(keys: readonly BudgetKey[], rank?: number): Promise<BookedSlot> | BookedSlot {
    return this.book(keys, rank, 0);
  }

  /**
   * Reserves a slot at least `leadMs` (or the store's round trip) from now, timing the store's answer.
   * The slot carries the arrival the store counted (its departure plus the arrival delay of this
   * request, computed as the stores do), so that a re-booking finds it whatever the estimate is then.
   */
  private book(keys: readonly BudgetKey[], rank: number | undefined, leadMs: number, replaces?: BookedSlot): Promise<BookedSlot> | BookedSlot {
    const asked = this.clock.now();
    const arrivalDelayMs = this.arrivalDelay.ms;
    const notBefore = Math.max(this.notBefore(keys), asked + Math.max(leadMs, this.storeRoundTripMs));
    const request = { ...this.rankOf(keys, rank), keys, notBefore, arrivalDelayMs, ...(replaces !== undefined && { replacesArrival: replaces.arrival }) };
    const slot = (departure: number): BookedSlot => ({ departure, arrival: departure + Math.max(0, arrivalDelayMs) });
    const answer = this.store.reserve(request);
    if (typeof answer === 'number') return slot(answer);
    if (this.store.answersWhenDue) return Promise.resolve(answer).then(slot);
    return Promise.resolve(answer).then((departure) => {
      const roundTripMs = Math.max(0, this.clock.now() - asked);
      this.storeRoundTripMs = this.storeRoundTripMs === 0 ? roundTripMs : 0.8 * this.storeRoundTripMs + 0.2 * roundTripMs;
      return slot(departure);
    });
  }

  /**
   * A call booked `slot` leaves now: `slot` when it is still within
   * {@link lateDepartureToleranceMs} of its departure, else a new slot booked in place of the stale
   * one (`SlotRequest.replacesArrival`: the arrival the store counted for it), at least `leadMs` from
   * now (how long the last answer took: a slot due when booked must still be due when the answer
   * comes back). The caller waits for it and confirms again.
   */
  confirm(keys: readonly BudgetKey[], rank: number | undefined, slot: BookedSlot, leadMs = 0): Promise<BookedSlot> | BookedSlot {
    const now = this.clock.now();
    if (now - slot.departure <= lateDepartureToleranceMs(keys)) return slot;
    return this.book(keys, rank, leadMs, slot);
  }

  nextDeparture(keys: readonly BudgetKey[], rank?: number): Promise<number> | number {
    return this.store.nextDeparture({ ...this.rankOf(keys, rank), keys, notBefore: this.notBefore(keys), arrivalDelayMs: this.arrivalDelay.ms });
  }

  /** The request's rank, and for a first card the other cards still to send on its route. */
  private rankOf(keys: readonly BudgetKey[], rank: number | undefined): { rank: SlotRank; unsentCards?: number } {
    const slotRank = this.slotRank(keys, rank);
    if (slotRank !== 'first-card') return { rank: slotRank };
    return { rank: slotRank, unsentCards: Math.max(0, this.cardsToSend(keys[0]?.key ?? '') - 1) };
  }

  /** Now, or later when a key's platform-announced window is spent ({@link BudgetKey.notBefore}). */
  private notBefore(keys: readonly BudgetKey[]): number {
    let at = this.clock.now();
    for (const key of keys) if (key.notBefore !== undefined && key.notBefore > at) at = key.notBefore;
    return at;
  }

  /**
   * Waits for a slot under `keys` (for calls outside the pump: a completion ping, a read of the
   * chat, an extra call of an operation). It waits until its keys have a slot due before it
   * reserves one, as the pump does ({@link ACQUIRE_LOOKS} looks at most, then it books the next
   * slot ahead): a slot booked ahead while another of its keys binds (the message's own 5/s right
   * after its final) moves the route's paced schedule past it, and every route slot in between —
   * 3 of Feishu's patch slots for a read right after a final — would go unused by every card.
   */
  async acquire(keys: readonly BudgetKey[]): Promise<void> {
    for (let look = 1; look < ACQUIRE_LOOKS; look += 1) {
      const wait = (await this.nextDeparture(keys)) - this.clock.now();
      if (wait < 1) break;
      await sleepMs(wait);
    }
    await this.leaveAt(keys, undefined, await this.reserve(keys));
  }

  /**
   * Waits for `slot` (booked under `keys`), and re-books while the call would leave too late for it
   * ({@link confirm}); each re-booking leads by the previous one's round trip.
   */
  async leaveAt(keys: readonly BudgetKey[], rank: number | undefined, slot: BookedSlot): Promise<void> {
    let leadMs = 0;
    for (;;) {
      await sleepMs(slot.departure - this.clock.now());
      const asked = this.clock.now();
      const confirmed = await this.confirm(keys, rank, slot, leadMs);
      if (confirmed === slot) return;
      leadMs = this.clock.now() - asked;
      slot = confirmed;
    }
  }

  /** Makes one platform call, timing it for the arrival delay estimate. */
  async timed<R>(call: () => Promise<R>): Promise<R> {
    const started = this.clock.now();
    try {
      return await call();
    } finally {
      this.arrivalDelay.observe(this.clock.now() - started);
    }
  }

  /**
   * Pauses the channel-wide key of each kind of call (the first of its budget keys) until
   * `epochMs`: a rate limit with `scope: 'channel'`. Never rejects.
   */
  pauseChannel(epochMs: number): void {
    const keys = [this.keysOf({ kind: 'send', target: undefined })[0]?.key, this.keysOf({ kind: 'update', target: undefined, message: { id: '' } })[0]?.key];
    for (const key of new Set(keys)) if (key !== undefined) void this.store.pauseUntil(key, epochMs).catch(() => undefined);
  }

  /**
   * Pauses `keys` (the budget keys of one failed call, from {@link keysOf}) until `epochMs`: a rate
   * limit with `scope: 'method'`. Never rejects.
   */
  pauseKeys(keys: readonly BudgetKey[], epochMs: number): void {
    for (const key of new Set(keys.map((entry) => entry.key))) void this.store.pauseUntil(key, epochMs).catch(() => undefined);
  }
}
