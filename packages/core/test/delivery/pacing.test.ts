import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemoryBudgetStore, TOKENS, createContainer, createProgressCards, memoryChannel, silentLogger, type BudgetStore } from '../../src/index.js';
import type { SlotRequest } from '../../src/store/index.js';
import type { BudgetedCall, BudgetWindow } from '../../src/plugin/contract.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const FEISHU_ROUTE: readonly BudgetWindow[] = [
  { limit: 50, intervalMs: 1000 },
  { limit: 1000, intervalMs: 60_000 },
];

/** The most arrivals any window of `intervalMs` holds (arrivals sorted). */
function busiestWindow(arrivals: readonly number[], intervalMs: number): number {
  let most = 0;
  for (let first = 0, last = 0; last < arrivals.length; last++) {
    while (arrivals[last]! - arrivals[first]! >= intervalMs) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

describe('InMemoryBudgetStore: paced budgets', () => {
  it('under any demand, arrivals never exceed a window and come at a steady rate (no start-up burst)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 1500 }), fc.integer({ min: 0, max: 200 }), (gaps, delay) => {
        const store = new InMemoryBudgetStore({ now: () => 0 });
        let now = 1_000_000;
        const arrivals: number[] = [];
        for (const gap of gaps) {
          now += gap;
          const departure = store.reserve({ keys: [{ key: 'route', windows: FEISHU_ROUTE }], notBefore: now, arrivalDelayMs: delay });
          expect(departure).toBeGreaterThanOrEqual(now);
          arrivals.push(departure + delay);
        }
        expect(busiestWindow(arrivals, 1000)).toBeLessThanOrEqual(50);
        expect(busiestWindow(arrivals, 60_000)).toBeLessThanOrEqual(1000);
        // Steady: never two calls closer than 1000/min allows on average (60 ms), so no burst at start.
        for (let i = 1; i < arrivals.length; i++) expect(arrivals[i]! - arrivals[i - 1]!).toBeGreaterThanOrEqual(60);
      }),
      { numRuns: 40 },
    );
  });

  it('a call drawing from several keys waits for the slowest; other keys stay free for other calls', () => {
    const store = new InMemoryBudgetStore();
    const chat = { key: 'chat:1', windows: [{ limit: 5, intervalMs: 1000 }] };
    const route = { key: 'route', windows: FEISHU_ROUTE };
    const request = (keys: SlotRequest['keys']): SlotRequest => ({ keys, notBefore: 0, arrivalDelayMs: 0 });
    expect(store.reserve(request([route, chat]))).toBe(0);
    const second = store.reserve(request([route, chat]));
    expect(second).toBe(210); // 5 per 1050 ms (1 s plus the jitter margin)
    expect(store.reserve(request([route, { key: 'chat:2', windows: chat.windows }]))).toBe(second + 61.2);
  });

  it('a pause holds every call under its key until it ends', async () => {
    const store = new InMemoryBudgetStore();
    await store.pauseUntil('route', 5000);
    expect(store.reserve({ keys: [{ key: 'route', windows: FEISHU_ROUTE }], notBefore: 0, arrivalDelayMs: 0 })).toBe(5000);
    expect(store.nextDeparture({ keys: [{ key: 'other', windows: FEISHU_ROUTE }], notBefore: 0, arrivalDelayMs: 0 })).toBe(0);
  });

  it('names the key and field of a bad window', () => {
    const store = new InMemoryBudgetStore();
    expect(() => store.reserve({ keys: [{ key: 'feishu:x', windows: [{ limit: 0, intervalMs: 1000 }] }], notBefore: 0, arrivalDelayMs: 0 })).toThrow(
      'budget key feishu:x: windows[0].limit must be a positive integer, got 0',
    );
  });
});

describe('cards paced through the budget', () => {
  it('300 cards over 3 simulated minutes, then their finals, never exceed 5/s and the first second holds no burst', { timeout: 60_000 }, async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const channel = memoryChannel({ latencyMs: 40 });
    const cards = createProgressCards({ channels: [channel], logger: silentLogger });
    const t0 = Date.now();
    const runs = Array.from({ length: 300 }, (_, i) => cards.open('memory', undefined, { title: `run ${i}` }));
    for (let step = 0; step < 180; step++) {
      for (const [i, run] of runs.entries()) {
        if ((i + step) % 20 === 0) run.toolStarted(`c${step}`, 'shell', `{"command":"step ${step}"}`);
        if ((i + step) % 20 === 10) run.toolFinished(`c${step - 10}`, 'ok');
      }
      await settle(1000);
    }
    const arrivals = channel.calls.map((call) => call.at).sort((a, b) => a - b);
    expect(arrivals.length).toBeGreaterThan(800);
    expect(busiestWindow(arrivals, 1000)).toBeLessThanOrEqual(5);
    expect(arrivals.filter((at) => at < t0 + 1000).length).toBeLessThanOrEqual(5);
    expect(channel.calls.filter((call) => call.failure === 'rate-limited')).toHaveLength(0);
    // While cards wait, the budget is used: at least 95 % of 5 per 1.05 s over the busy minutes.
    const busy = arrivals.filter((at) => at >= t0 + 60_000 && at < t0 + 120_000).length;
    expect(busy).toBeGreaterThanOrEqual(0.95 * (60_000 / 210));
    for (const run of runs) run.complete();
    await settle(120_000);
    expect((await Promise.all(runs.map((run) => run.finalDelivery))).every((final) => final.ok)).toBe(true);
  });

  it('a flush whose render equals the last accepted one takes no budget slot', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const reserved: SlotRequest[] = [];
    const inner = new InMemoryBudgetStore();
    const counting: BudgetStore = {
      reserve: (request) => {
        reserved.push(request);
        return inner.reserve(request);
      },
      nextDeparture: (request) => inner.nextDeparture(request),
      pauseUntil: (key, at) => inner.pauseUntil(key, at),
    };
    const parent = createContainer();
    parent.register(TOKENS.BudgetStore, { useValue: counting });
    const channel = memoryChannel();
    const cards = createProgressCards({ channels: [channel], logger: silentLogger, parent });
    const card = cards.open('memory');
    card.start({ title: 'usage only' });
    await settle(1000);
    expect(reserved).toHaveLength(1);
    // Token usage shows only in the final footer: the card changes, its render does not.
    for (let i = 0; i < 10; i++) {
      card.usage({ inputTokens: 100 });
      await settle(300);
    }
    expect(reserved).toHaveLength(1);
    expect(cards.stats('memory')).toMatchObject({ sent: 1, updated: 0, unchanged: 10 });
  });

  it('continuation parts take a slot each, under the keys of their own call (a reply to the main message, then an update of the part)', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const reserved: string[][] = [];
    const inner = new InMemoryBudgetStore();
    const recording: BudgetStore = {
      reserve: (request) => {
        reserved.push(request.keys.map((key) => key.key));
        return inner.reserve(request);
      },
      nextDeparture: (request) => inner.nextDeparture(request),
      pauseUntil: (key, at) => inner.pauseUntil(key, at),
    };
    const parent = createContainer();
    parent.register(TOKENS.BudgetStore, { useValue: recording });
    const windows = [{ limit: 5, intervalMs: 1000 }];
    const channel = Object.assign(memoryChannel({ answerChunkChars: 10 }), {
      budgetKeys: (call: BudgetedCall) => [
        { key: `route:${call.kind}`, windows },
        { key: call.kind === 'update' ? `message:${call.message!.id}` : `reply-to:${call.replyTo?.id ?? 'none'}`, windows },
      ],
    });
    const cards = createProgressCards({ channels: [channel], logger: silentLogger, parent });
    const card = cards.open('memory');
    card.answer('0123456789tail');
    await settle(5000);
    card.complete();
    await settle(5000);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, continuations: { delivered: 1, total: 1 } });
    const main = final.message!.id;
    const part = channel.calls.find((call) => call.replyTo === main)!.messageId;
    // One reservation per platform call, in order, each under the keys of that call.
    expect(reserved).toEqual(
      channel.calls.map((call) =>
        call.op === 'update' ? ['route:update', `message:${call.messageId}`] : ['route:send', `reply-to:${call.replyTo ?? 'none'}`],
      ),
    );
    expect(reserved).toContainEqual(['route:send', `reply-to:${main}`]);
    expect(part).not.toBe(main);
    // Counted per key: no window of a key over 5/s; the final and the new part may burst, but no two
    // calls under one key come closer than half a slot of 5/s (BURST_SPACING_SHARE).
    const byKey = new Map<string, number[]>();
    for (const [i, keys] of reserved.entries()) for (const key of keys) byKey.set(key, [...(byKey.get(key) ?? []), channel.calls[i]!.at]);
    expect(byKey.get(`message:${part}`)).toHaveLength(1);
    expect(byKey.get('route:update')).toHaveLength(2);
    for (const arrivals of byKey.values()) {
      expect(busiestWindow(arrivals, 1000)).toBeLessThanOrEqual(5);
      for (let i = 1; i < arrivals.length; i++) expect(arrivals[i]! - arrivals[i - 1]!).toBeGreaterThanOrEqual(100);
    }
  });
});
