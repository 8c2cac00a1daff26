/**
 * A call outside the card flushes (a completion ping's read of the chat right after a final, an
 * extra call of an operation) waits for its slot before it reserves it, as the pump does: booked
 * ahead while the message's own 5/s binds, it moved the route's paced schedule past it and the
 * route's slots in between went unused by every other card (found by the real-time bench: Feishu
 * tool changes waited 200–400 ms longer over HTTP, where the plugin reads the chat after each final).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InMemoryBudgetStore } from '../../src/index.js';
import { ChannelBudget } from '../../src/delivery/rate-limits/channel-budget.js';
import type { BookedSlot } from '../../src/delivery/schedule/flush-calls.js';
import type { BudgetedCall, BudgetWindow, ChannelPlugin, ChannelSettings } from '../../src/plugin/contract.js';

const ROUTE: readonly BudgetWindow[] = [
  { limit: 50, intervalMs: 1000 },
  { limit: 1000, intervalMs: 60_000 },
];
/** One message's own limit (Feishu: 5 updates a second per message). */
const PER_MESSAGE: readonly BudgetWindow[] = [{ limit: 5, intervalMs: 1000 }];
const ROUTE_SPACING_MS = 61.2;
const MESSAGE_SPACING_MS = 210;

const T0 = 1_800_000_000_000;

function feishuLikeBudget(): ChannelBudget {
  const plugin = {
    id: 'feishu-like',
    budgetKeys: (call: BudgetedCall) => [
      { key: 'app:patch', windows: ROUTE },
      { key: `message:${call.message?.id ?? ''}`, windows: PER_MESSAGE },
    ],
  } as unknown as ChannelPlugin;
  const settings = { tickMs: 3000, budget: ROUTE, perCardIntervalMs: 250, debounceMs: 250 } as ChannelSettings;
  return new ChannelBudget(plugin, settings, new InMemoryBudgetStore(), { now: () => Date.now() });
}

const update = (message: string): BudgetedCall => ({ kind: 'update', target: undefined, message: { id: message } });

describe('ChannelBudget.acquire: a call outside the pump takes a slot when it is due', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: T0 });
  });
  afterEach(() => vi.useRealTimers());

  it('a read right after a final waits for its message without holding back other cards on the route', async () => {
    const budget = feishuLikeBudget();
    // Card A's final leaves now; its message's next slot is 210 ms away.
    expect(budget.reserve(budget.keysOf(update('A')), 0)).toMatchObject({ departure: T0 });
    let readAt: number | undefined;
    void budget.acquire(budget.keysOf(update('A'))).then(() => (readAt = Date.now()));
    await vi.advanceTimersByTimeAsync(0);

    // Other cards' tool changes go out as the pump sends them: at the route's next slot each.
    const departures: number[] = [];
    for (const card of ['B', 'C', 'D']) {
      const keys = budget.keysOf(update(card));
      const due = budget.nextDeparture(keys, 1) as number;
      await vi.advanceTimersByTimeAsync(Math.max(0, Math.ceil(due - Date.now())));
      departures.push((budget.reserve(keys, 1) as BookedSlot).departure - T0);
    }
    // Booked ahead at A's next slot, the read would have pushed B to 210 + 61.2 ms.
    // (Each up to a millisecond later than the last plus the spacing: timers fire on whole milliseconds.)
    for (const [i, departure] of departures.entries()) expect(departure).toBeLessThan((i + 1) * (ROUTE_SPACING_MS + 1) + 1);

    await vi.advanceTimersByTimeAsync(1000);
    // The read went once its message allowed it, at the route's next free slot.
    expect(readAt).toBeDefined();
    expect(readAt! - T0).toBeGreaterThanOrEqual(MESSAGE_SPACING_MS);
    expect(readAt! - T0).toBeLessThan(4 * (ROUTE_SPACING_MS + 1) + 1);
  });

  it('behind a route the pump keeps full, it books the next slot after a few looks (it never starves)', async () => {
    const budget = feishuLikeBudget();
    budget.reserve(budget.keysOf(update('A')), 0);
    let readAt: number | undefined;
    void budget.acquire(budget.keysOf(update('A'))).then(() => (readAt = Date.now()));
    // The pump takes each route slot the moment it is due, before the read looks again.
    let card = 0;
    for (let ms = 0; ms < 2000 && readAt === undefined; ms++) {
      const keys = budget.keysOf(update(`P${card}`));
      if ((budget.nextDeparture(keys, 2) as number) < Date.now() + 1) {
        budget.reserve(keys, 2);
        card += 1;
      }
      await vi.advanceTimersByTimeAsync(1);
    }
    expect(readAt).toBeDefined();
    // It waited for its message (210 ms), lost the route's next slot to the pump, then booked the one after.
    expect(readAt! - T0).toBeGreaterThanOrEqual(MESSAGE_SPACING_MS);
    expect(readAt! - T0).toBeLessThan(MESSAGE_SPACING_MS + 3 * ROUTE_SPACING_MS);
  });
});
