import { afterEach, describe, expect, it, vi } from 'vitest';
import { createContainer, createProgressCards, InMemoryBudgetStore, memoryChannel, silentLogger, TOKENS, type MemoryCall } from '../src/index.js';
import { settle, setup } from './helpers.js';
import { maxCallsInWindow } from '../src/testing/index.js';

/** The most calls in any window of `windowMs`. */
function maxInWindow(calls: readonly MemoryCall[], windowMs: number): number {
  return maxCallsInWindow(calls.map((call) => call.at), windowMs);
}

/** Two products of one app in one process, each with 10 cards making 5 changes, on a 5/s budget. */
async function twoProducts(parent?: ReturnType<typeof createContainer>) {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  const overrides = { budget: [{ limit: 5, intervalMs: 1000 }], perCardIntervalMs: 0 };
  const channels = [memoryChannel({ overrides }), memoryChannel({ overrides })];
  const products = channels.map((channel) => createProgressCards({ channels: [channel], logger: silentLogger, env: {}, parent }));
  const cards = products.flatMap((product) => Array.from({ length: 10 }, () => product.open('memory')));
  for (let step = 0; step < 5; step++) {
    for (const card of cards) card.toolStarted(`s${step}`, 'shell', `{"command":"step ${step}"}`);
    await settle(500);
  }
  for (const card of cards) card.complete('done');
  await settle(120_000);
  const finals = await Promise.all(cards.map((card) => card.finalDelivery));
  return { calls: channels.flatMap((channel) => channel.calls), finals };
}

afterEach(() => vi.useRealTimers());

describe('composition', () => {
  it('two compositions in one process share nothing: budgets, tick ms, timers', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const a = memoryChannel({ overrides: { tickMs: 1000 } });
    const b = memoryChannel({ overrides: { tickMs: 2000 } });
    const productA = createProgressCards({ channels: [a], logger: silentLogger, env: {} });
    const productB = createProgressCards({ channels: [b], logger: silentLogger, env: {} });
    productA.open('memory').toolStarted('x', 'shell', '{"command":"a"}');
    productB.open('memory').toolStarted('x', 'shell', '{"command":"b"}');
    expect(productA.diagnostics()).toMatchObject({ openCards: 1, tickingCards: 1, tickTimers: 1 });
    expect(productB.diagnostics()).toMatchObject({ openCards: 1, tickingCards: 1, tickTimers: 1 });
    await settle(2000);
    expect(a.calls.map((call) => call.payload.tools[0])).toEqual(['shell: `a`（执行中）', 'shell: `a`（执行中 · 1 秒）', 'shell: `a`（执行中 · 2 秒）']);
    expect(b.calls.map((call) => call.payload.tools[0])).toEqual(['shell: `b`（执行中）', 'shell: `b`（执行中 · 2 秒）']);
  });

  it('names an unknown channel and the registered ones', () => {
    const cards = createProgressCards({ channels: [memoryChannel()], logger: silentLogger, env: {} });
    expect(() => cards.open('feishu')).toThrow('unknown channel "feishu"; registered: memory');
  });

  it('refuses a channel registered twice or a malformed id', () => {
    expect(() => createProgressCards({ channels: [memoryChannel(), memoryChannel()], logger: silentLogger, env: {} })).toThrow('registered twice');
    expect(() => createProgressCards({ channels: [memoryChannel({ id: 'Bad Id' })], logger: silentLogger, env: {} })).toThrow('"Bad Id"');
  });

  it('shutdown leaves no card spinning: running cards end cancelled', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    card.toolStarted('x', 'shell', '{"command":"sleep 100"}');
    await settle(3500);
    const done = cards.shutdown('service restart');
    await settle(5000);
    const [final] = await done;
    expect(final).toMatchObject({ ok: true, status: 'cancelled' });
    expect(channel.messages.get('m1')!.history.at(-1)!.status).toBe('cancelled');
    expect(cards.diagnostics()).toEqual({ openCards: 0, tickingCards: 0, tickTimers: 0, wakeTimers: 0, pendingCards: 0, inFlight: 0, channelsAtBudget: 0 });
  });
});

describe('seams from a parent container', () => {
  it('one BudgetStore given by a parent to two compositions: together they never exceed the budget', async () => {
    const parent = createContainer();
    parent.register(TOKENS.BudgetStore, { useValue: new InMemoryBudgetStore() });
    const { calls, finals } = await twoProducts(parent);
    expect(maxInWindow(calls, 1000)).toBeLessThanOrEqual(5);
    expect(finals.every((final) => final.ok)).toBe(true);
  });

  it('without a shared store each composition has its own budget (so together they exceed one)', async () => {
    const { calls } = await twoProducts();
    expect(maxInWindow(calls, 1000)).toBeGreaterThan(5);
  });
});

describe('diagnostics', () => {
  it('shows open cards, calls in flight and pending flushes, then nothing once the finals are out', async () => {
    const { cards } = setup({ latencyMs: 500 });
    const first = cards.open('memory');
    const second = cards.open('memory');
    first.toolStarted('a', 'shell', '{"command":"ls"}');
    second.toolStarted('a', 'shell', '{"command":"ls"}');
    await settle(300); // the second send is paced one slot (210 ms at 5/s) after the first
    expect(cards.diagnostics()).toMatchObject({ openCards: 2, tickingCards: 2, tickTimers: 1, inFlight: 2, pendingCards: 2 });
    first.complete('ok');
    second.complete('ok');
    await settle(5000);
    expect(cards.diagnostics()).toEqual({ openCards: 0, tickingCards: 0, tickTimers: 0, wakeTimers: 0, pendingCards: 0, inFlight: 0, channelsAtBudget: 0 });
  });
});

describe('card per turn', () => {
  it('starts a new card when the round advances; the previous one gets its final state and is never edited again', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory', undefined, { cardPer: 'turn', title: 'Two turns' });
    card.roundStarted(1);
    card.toolStarted('a', 'read_file', '{"path":"a.ts"}');
    card.toolFinished('a', '10 lines');
    await settle(1000);
    card.roundStarted(2);
    card.answer('Second turn answer');
    await settle(1000);
    const firstHistory = [...channel.messages.get('m1')!.history];
    card.complete();
    await settle(5000);
    const final = await card.finalDelivery;
    expect(channel.messages.size).toBe(2);
    expect(firstHistory.at(-1)).toMatchObject({ status: 'completed', round: 1 });
    expect(channel.messages.get('m1')!.history).toEqual(firstHistory);
    expect(final.message!.id).toBe('m2');
    expect(channel.messages.get('m2')!.history.at(-1)).toMatchObject({ status: 'completed', round: 2, title: 'Two turns', answer: 'Second turn answer' });
  });

  it('one card per run by default: rounds update the same card', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    card.roundStarted(1);
    card.roundStarted(2);
    card.roundStarted(3);
    card.complete('done');
    await settle(5000);
    expect(channel.messages.size).toBe(1);
    expect(channel.messages.get('m1')!.history.at(-1)!.round).toBe(3);
  });
});
