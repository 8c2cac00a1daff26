import { afterEach, describe, expect, it, vi } from 'vitest';
import { createContainer, createProgressCards, InMemoryBudgetStore, InMemoryCardStore, memoryChannel, silentLogger, TOKENS, type BudgetStore, type Clock, type Tickable, type Ticker } from '../../src/index.js';
import type { SlotRequest, StoredCard } from '../../src/store/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const T0 = 1_700_000_000_000;

/** A budget store that records every reservation and hands it to an in-memory one. */
function recordingBudgets(clock?: Clock): { store: BudgetStore; reserved: SlotRequest[] } {
  const inner = new InMemoryBudgetStore(clock);
  const reserved: SlotRequest[] = [];
  const store: BudgetStore = {
    reserve: (request) => {
      reserved.push(request);
      return inner.reserve(request);
    },
    nextDeparture: (request) => inner.nextDeparture(request),
    pauseUntil: (key, at) => inner.pauseUntil(key, at),
  };
  return { store, reserved };
}

/** A ticker the product drives itself: it ticks its cards only when told to. */
class ManualTicker implements Ticker {
  readonly watched = new Map<Tickable, number>();
  disposed = false;
  watch(card: Tickable, intervalMs: number): void {
    this.watched.set(card, intervalMs);
  }
  unwatch(card: Tickable): void {
    this.watched.delete(card);
  }
  get watchedCount(): number {
    return this.watched.size;
  }
  get timerCount(): number {
    return 0;
  }
  dispose(): void {
    this.disposed = true;
  }
  tickAll(): void {
    for (const card of this.watched.keys()) card.onTick();
  }
}

describe('a product overrides a seam by registering its token in the container it passes in', () => {
  it('TOKENS.Clock: the card shows times of the registered clock (a replay an hour in the past)', async () => {
    vi.useFakeTimers({ now: T0 });
    const parent = createContainer();
    const replayStart = T0 - 3_600_000;
    parent.register(TOKENS.Clock, { useValue: { now: () => Date.now() - 3_600_000 } });
    const cards = createProgressCards({ channels: [memoryChannel()], logger: silentLogger, env: {}, parent });
    const card = cards.open('memory');
    card.start({ title: 'replayed' });
    await settle(1000);
    expect(card.view().startedAt).toBe(replayStart);
    await cards.shutdown();
  });

  it('TOKENS.DeliveryClock: budget reservations and card leases are stamped by the registered clock', async () => {
    vi.useFakeTimers({ now: T0 });
    const skewMs = -5000;
    const deliveryClock: Clock = { now: () => Date.now() + skewMs };
    const { store: budgets, reserved } = recordingBudgets(deliveryClock);
    const leaseStamps: number[] = [];
    const cardStore = new InMemoryCardStore();
    const put = cardStore.put.bind(cardStore);
    cardStore.put = (stored: StoredCard) => {
      leaseStamps.push(stored.lease.expiresAt - Date.now());
      return put(stored);
    };
    const parent = createContainer();
    parent.register(TOKENS.DeliveryClock, { useValue: deliveryClock });
    parent.register(TOKENS.BudgetStore, { useValue: budgets });
    parent.register(TOKENS.CardStore, { useValue: cardStore });
    const channel = memoryChannel();
    const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {}, parent, leaseTtlMs: 30_000 });
    const card = cards.open('memory');
    card.start({ title: 'skewed' });
    let stampedAt = 0;
    const reserve = budgets.reserve;
    budgets.reserve = (request) => {
      stampedAt = request.notBefore - Date.now();
      return reserve(request);
    };
    await settle(1000);
    expect(reserved.length).toBeGreaterThan(0);
    expect(stampedAt).toBe(skewMs);
    expect(leaseStamps.length).toBeGreaterThan(0);
    expect(leaseStamps.every((stamp) => stamp === 30_000 + skewMs)).toBe(true);
    expect(channel.calls).toHaveLength(1);
    await cards.shutdown();
  });

  it('TOKENS.BudgetStore: every platform call of the composition reserves its slot in the registered store', async () => {
    vi.useFakeTimers({ now: T0 });
    const { store, reserved } = recordingBudgets();
    const parent = createContainer();
    parent.register(TOKENS.BudgetStore, { useValue: store });
    const channel = memoryChannel();
    const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {}, parent });
    const card = cards.open('memory');
    card.start({ title: 'budgeted' });
    await settle(1000);
    card.complete('done');
    await settle(5000);
    expect((await card.finalDelivery).ok).toBe(true);
    expect(channel.calls.map((call) => call.op)).toEqual(['send', 'update']);
    expect(reserved).toHaveLength(channel.calls.length);
  });

  it('TOKENS.Ticker: running tools re-render when the registered ticker ticks, and it is disposed at shutdown', async () => {
    vi.useFakeTimers({ now: T0 });
    const ticker = new ManualTicker();
    const parent = createContainer();
    parent.register(TOKENS.Ticker, { useValue: ticker });
    const channel = memoryChannel({ overrides: { tickMs: 1000 } });
    const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {}, parent });
    const card = cards.open('memory');
    card.toolStarted('c1', 'shell', '{"command":"sleep 60"}');
    await settle(1000);
    expect([...ticker.watched.values()]).toEqual([1000]);
    expect(cards.diagnostics()).toMatchObject({ tickingCards: 1, tickTimers: 0 });
    const before = channel.calls.length;
    // No timer of the core ticks the card: 10 s later nothing new was sent.
    await settle(10_000);
    expect(channel.calls).toHaveLength(before);
    ticker.tickAll();
    await settle(1000);
    expect(channel.calls.length).toBeGreaterThan(before);
    await cards.shutdown();
    expect(ticker.disposed).toBe(true);
  });

  it('an option wins over the parent’s registration (the parent stays the default for other compositions)', async () => {
    vi.useFakeTimers({ now: T0 });
    const parent = createContainer();
    parent.register(TOKENS.Clock, { useValue: { now: () => 42 } });
    const cards = createProgressCards({ channels: [memoryChannel()], logger: silentLogger, env: {}, parent, clock: { now: () => T0 + 7 } });
    const card = cards.open('memory');
    card.start({ title: 'option clock' });
    await settle(1000);
    expect(card.view().startedAt).toBe(T0 + 7);
    await cards.shutdown();
  });
});
