/**
 * A call that leaves late for the slot its reservation gave (a slow budget-store round trip, an
 * event-loop stall between booking and sending) must not arrive in a window other calls have filled
 * since: the platform counts calls when they arrive (Feishu 99991400, DingTalk
 * QpsLimitForAppkeyAndApi). Two "processes" (pumps) share one budget store; one of them gets its
 * store's answers late. A strict arrival-counting window, as the emulators enforce, counts every
 * call when it leaves. Simulated time throughout.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemoryBudgetStore } from '../../src/index.js';
import type { BudgetStore, SlotRequest } from '../../src/store/index.js';
import type { BudgetKey, BudgetWindow, ChannelPlugin, ChannelSettings } from '../../src/plugin/contract.js';
import { ChannelBudget } from '../../src/delivery/rate-limits/channel-budget.js';
import type { BookedSlot, FlushGate, PreparedCall } from '../../src/delivery/schedule/flush-calls.js';
import { FlushPump } from '../../src/delivery/schedule/flush-pump.js';
import { FlushQueue } from '../../src/delivery/schedule/flush-queue.js';
import { CHANGE_RANK } from '../../src/delivery/card-delivery-record.js';
import { maxCallsInWindow } from '../../src/testing/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

/** One route of one app: 10 calls a second (the shared-budget e2e's 50/s, scaled down). */
const ROUTE: readonly BudgetWindow[] = [{ limit: 10, intervalMs: 1000 }];
const clock = { now: () => Date.now() };

/** Reservations asked through {@link lateReplies}: how many re-booked a stale slot. */
interface Replies {
  readonly store: BudgetStore;
  rebooked: number;
}

/**
 * The store as seen from a busy process: the store picks the slot at once, the answer of the `i`-th
 * reservation comes back `lateMs(i)` later (a slow Redis round trip, a stalled event loop).
 */
function lateReplies(store: BudgetStore, lateMs: (i: number) => number): Replies {
  let asked = 0;
  const replies: Replies = {
    rebooked: 0,
    store: {
      reserve: async (request: SlotRequest) => {
        if (request.replacesArrival !== undefined) replies.rebooked += 1;
        const departure = store.reserve(request);
        await sleep(lateMs(asked++));
        return departure;
      },
      nextDeparture: (request: SlotRequest) => store.nextDeparture(request),
      pauseUntil: (key, epochMs) => store.pauseUntil(key, epochMs),
    },
  };
  return replies;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function budgetOver(store: BudgetStore): ChannelBudget {
  const plugin = { id: 'route' } as unknown as ChannelPlugin;
  const settings = { perCardIntervalMs: 250, budget: ROUTE } as unknown as ChannelSettings;
  return new ChannelBudget(plugin, settings, store, clock);
}

/** The budget as it was before late departures were caught: a slot due now is booked now and kept however late the call leaves. */
function keepingStaleSlots(store: BudgetStore): FlushGate {
  const request = (keys: readonly BudgetKey[]): SlotRequest => ({ keys, notBefore: Date.now(), arrivalDelayMs: 0, rank: 'final' });
  return {
    nextDeparture: (keys) => store.nextDeparture(request(keys)),
    reserve: async (keys) => {
      const departure = await store.reserve(request(keys));
      return { departure, arrival: departure };
    },
  };
}

/**
 * Processes, each flushing the finals of `cards` cards through its gate, one card every
 * `gapsMs[i]` ms (runs ending over a few seconds); the times their calls left.
 */
async function processes(gates: readonly FlushGate[], cards: number, gapsMs: readonly number[]): Promise<number[]> {
  const departures: number[] = [];
  const started = Date.now();
  const runs = gates.map((gate, i) => {
    const pump = new FlushPump(gate, clock, (): PreparedCall => ({ keys: [{ key: 'route', windows: ROUTE }], send: async () => void departures.push(Date.now()) }));
    return { pump, gapMs: gapsMs[i]!, requested: 0 };
  });
  for (let at = 0; runs.some((run) => run.requested < cards); at += 1) {
    await vi.advanceTimersByTimeAsync(started + at - Date.now());
    for (const run of runs) {
      if (run.requested < cards && at % run.gapMs === 0) {
        run.pump.request({ flushQueue: new FlushQueue(250) }, CHANGE_RANK.terminal);
        run.requested += 1;
      }
    }
  }
  await settle(60_000);
  for (const { pump } of runs) pump.dispose();
  expect(departures).toHaveLength(gates.length * cards);
  return departures;
}

/** The two processes end a run every 150 and 200 ms: 11.7 finals a second together, a little over the route's 10. */
const GAPS = [150, 200];
/** Every fourth answer comes back 600 ms late (a stall), the others after 5 ms. */
const STALLS = (i: number) => (i % 4 === 3 ? 600 : 5);

describe('late departures: a call leaves within its slot or books another', () => {
  it('finals of two processes on one route, one of them stalling: kept stale slots put more than the limit in a window; confirmed slots never', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const before = new InMemoryBudgetStore(clock);
    const defect = await processes([keepingStaleSlots(before), keepingStaleSlots(lateReplies(before, STALLS).store)], 20, GAPS);
    expect(maxCallsInWindow(defect, 1000)).toBeGreaterThan(10);

    const store = new InMemoryBudgetStore(clock);
    const stalling = lateReplies(store, STALLS);
    const fixed = await processes([budgetOver(store), budgetOver(stalling.store)], 20, GAPS);
    expect(maxCallsInWindow(fixed, 1000)).toBeLessThanOrEqual(10);
    expect(stalling.rebooked).toBeGreaterThan(0);
  });

  it('a store that answers slowly but steadily: calls book a slot that far ahead and leave on it, without re-booking', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const store = new InMemoryBudgetStore(clock);
    const slow = lateReplies(store, () => 300);
    const departures = await processes([budgetOver(store), budgetOver(slow.store)], 20, GAPS);
    expect(maxCallsInWindow(departures, 1000)).toBeLessThanOrEqual(10);
    // Only the first answer finds the call late: later bookings lead by the store's round trip.
    expect(slow.rebooked).toBe(1);
  });

  it('a call whose departure timer fires late (a stalled event loop) books again; on time it keeps its slot', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const store = new InMemoryBudgetStore(clock);
    const budget = budgetOver(store);
    const keys = [{ key: 'route', windows: ROUTE }];
    const first = budget.reserve(keys) as BookedSlot;
    expect(budget.confirm(keys, undefined, first)).toBe(first);
    // Nine more calls fill the window from the first one's slot on.
    const booked = Array.from({ length: 9 }, () => (budget.reserve(keys) as BookedSlot).departure);
    const last = booked.at(-1)!;
    // The first call did not leave: 400 ms later its slot is stale; the call books the next free slot instead.
    vi.setSystemTime(first.departure + 400);
    const again = (budget.confirm(keys, undefined, first) as BookedSlot).departure;
    expect(again).toBeGreaterThan(last);
    // Its stale slot is no longer counted: the slot after it is one spacing later, not a whole window.
    expect(again - last).toBeLessThan(200);
    expect(maxCallsInWindow([...booked, again], 1000)).toBeLessThanOrEqual(10);
  });
  it('a late final re-books in place of its stale slot even when the arrival-delay estimate moved since it booked it', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const store = new InMemoryBudgetStore(clock);
    // Finals burst up to a route's limit when it has a longer window too (Feishu's 50/s and 1000/min, scaled down).
    const windows: readonly BudgetWindow[] = [...ROUTE, { limit: 200, intervalMs: 60_000 }];
    const plugin = { id: 'route' } as unknown as ChannelPlugin;
    const budget = new ChannelBudget(plugin, { perCardIntervalMs: 250, budget: windows } as unknown as ChannelSettings, store, clock);
    const keys = [{ key: 'route', windows }];
    const final = CHANGE_RANK.terminal;
    const first = budget.reserve(keys, final) as BookedSlot;
    // A call's round trip of 80 ms moves the estimate from 0 to 40 ms after the first final booked.
    const call = budget.timed(() => sleep(80));
    await vi.advanceTimersByTimeAsync(80);
    await call;
    // Nine more finals fill the route's 10 slots a second, bursting at half the paced spacing.
    const booked = Array.from({ length: 9 }, () => budget.reserve(keys, final) as BookedSlot);
    expect(booked[0]!.arrival - booked[0]!.departure).toBe(40);
    expect(booked.at(-1)!.departure - first.departure).toBeLessThan(600);
    // The first final did not leave: its slot is stale, and it books the next free one in its place.
    // Its stale slot no longer counted, that is the next burst slot; still counted (an eleventh in the
    // window), the final would wait for the first slot to leave the window (1050 ms after it).
    vi.setSystemTime(first.departure + 400);
    const again = budget.confirm(keys, final, first) as BookedSlot;
    expect(again).not.toBe(first);
    expect(again.departure - booked.at(-1)!.departure).toBeLessThan(100);
    // Ten slots counted in the window: the next final waits for the window to move on.
    const next = budget.reserve(keys, final) as BookedSlot;
    expect(next.departure - booked[0]!.departure).toBeGreaterThan(1000);
    expect(maxCallsInWindow([...booked, again, next].map((slot) => slot.arrival), 1000)).toBeLessThanOrEqual(10);
  });

  it('a store that answers only once the slot is due (it queues calls): no slot is booked ahead for its waiting', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const inner = new InMemoryBudgetStore(clock);
    const asked: number[] = [];
    const queueing: BudgetStore = {
      answersWhenDue: true,
      reserve: async (request: SlotRequest) => {
        asked.push(request.notBefore - Date.now());
        const departure = inner.reserve(request);
        await sleep(departure - Date.now());
        return Date.now();
      },
      nextDeparture: (request: SlotRequest) => inner.nextDeparture(request),
      pauseUntil: (key, epochMs) => inner.pauseUntil(key, epochMs),
    };
    const budget = budgetOver(queueing);
    const keys = [{ key: 'route', windows: ROUTE }];
    // Thirty calls at once: the later ones wait seconds inside the store, as p-throttle makes them.
    const leaving = Promise.all(Array.from({ length: 30 }, async () => {
      const slot = await budget.reserve(keys);
      await budget.leaveAt(keys, undefined, slot);
      return slot.departure;
    }));
    await vi.advanceTimersByTimeAsync(5_000);
    const departures = await leaving;
    // A call after them asks for a slot from now: the queue's waiting is not taken for a slow store.
    const next = budget.reserve(keys);
    await vi.advanceTimersByTimeAsync(5_000);
    await next;
    expect(asked.at(-1)).toBe(0);
    expect(maxCallsInWindow(departures, 1000)).toBeLessThanOrEqual(10);
  });
});
