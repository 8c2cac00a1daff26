/**
 * Ranked budgets: finals and first cards are served before progress updates by every process that
 * shares one budget store, and an idle route spends its burst capacity (Feishu's 50/s within
 * 1 000/min) on first cards without ever exceeding a window. Simulated time throughout.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createContainer, createProgressCards, InMemoryBudgetStore, memoryChannel, silentLogger, TOKENS, type MemoryChannel } from '../../src/index.js';
import type { SlotRank } from '../../src/store/index.js';
import type { BudgetWindow } from '../../src/plugin/contract.js';
import { maxCallsInWindow } from '../../src/testing/index.js';
import { settle } from '../helpers.js';

afterEach(() => vi.useRealTimers());

/** Feishu's windows of one API route of one app: 50/s and 1 000/min. */
const FEISHU_ROUTE: readonly BudgetWindow[] = [
  { limit: 50, intervalMs: 1000 },
  { limit: 1000, intervalMs: 60_000 },
];
const RANKS: readonly SlotRank[] = ['final', 'first-card', 'structural', 'progress'];

function p99(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!;
}

describe('InMemoryBudgetStore: ranks', () => {
  it('whatever the mix of ranks and demand, no window ever holds more than its limit', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 200 }), fc.constantFrom(...RANKS)), { minLength: 1, maxLength: 2500 }), fc.integer({ min: 0, max: 100 }), (requests, delay) => {
        const store = new InMemoryBudgetStore({ now: () => 0 });
        let now = 1_000_000;
        const arrivals: number[] = [];
        for (const [gap, rank] of requests) {
          now += gap;
          const departure = store.reserve({ keys: [{ key: 'route', windows: FEISHU_ROUTE }], notBefore: now, arrivalDelayMs: delay, rank });
          expect(departure).toBeGreaterThanOrEqual(now);
          arrivals.push(departure + delay);
        }
        // counted at arrival, in reservation order
        for (let i = 1; i < arrivals.length; i++) expect(arrivals[i]!).toBeGreaterThanOrEqual(arrivals[i - 1]!);
        expect(maxCallsInWindow(arrivals, 1000)).toBeLessThanOrEqual(50);
        expect(maxCallsInWindow(arrivals, 60_000)).toBeLessThanOrEqual(1000);
      }),
      { numRuns: 30 },
    );
  });

  it('an idle route sends first cards of runs starting together at up to 50/s; updates stay paced at 16.3/s', () => {
    const startAt = 1_000_000;
    const requests = Array.from({ length: 500 }, (_, i) => startAt + Math.floor((i * 10_000) / 500));
    const waits = (rank: SlotRank) => {
      const store = new InMemoryBudgetStore({ now: () => 0 });
      const arrivals: number[] = [];
      const waited = requests.map((at) => {
        const departure = store.reserve({ keys: [{ key: 'create', windows: FEISHU_ROUTE }], notBefore: at, arrivalDelayMs: 20, rank });
        arrivals.push(departure + 20);
        return departure - at;
      });
      expect(maxCallsInWindow(arrivals, 1000)).toBeLessThanOrEqual(50);
      expect(maxCallsInWindow(arrivals, 60_000)).toBeLessThanOrEqual(1000);
      return waited;
    };
    const firstCards = waits('first-card');
    expect(p99(firstCards)).toBeLessThan(1000);
    // the same demand as updates is paced: the last waits about 500 × 61 ms − 10 s
    expect(p99(waits('structural'))).toBeGreaterThan(15_000);
  });

  it('a burst of finals is paid back by the paced ranks, not by the next final', () => {
    const store = new InMemoryBudgetStore({ now: () => 0 });
    const key = { key: 'patch', windows: FEISHU_ROUTE };
    const at = 1_000_000;
    for (let i = 0; i < 10; i++) expect(store.reserve({ keys: [key], notBefore: at + i * 21, arrivalDelayMs: 0, rank: 'final' })).toBe(at + i * 21);
    // 10 finals within 0.2 s: a progress update waits until the paced schedule caught up (10 × 61.2 ms)
    expect(store.nextDeparture({ keys: [key], notBefore: at + 200, arrivalDelayMs: 0, rank: 'progress' })).toBeGreaterThanOrEqual(at + 10 * 61.2 - 1);
    expect(store.nextDeparture({ keys: [key], notBefore: at + 200, arrivalDelayMs: 0, rank: 'final' })).toBeLessThan(at + 230);
  });

  it('a saturated window keeps its last slots for the higher ranks', () => {
    const store = new InMemoryBudgetStore({ now: () => 0 });
    const key = { key: 'dingtalk', windows: [{ limit: 20, intervalMs: 1000 }] };
    const at = 1_000_000;
    // progress fills what it may of one window (20 − 2), then must wait for the window to move on
    let progress = at;
    for (let i = 0; i < 18; i++) progress = store.reserve({ keys: [key], notBefore: at, arrivalDelayMs: 0, rank: 'progress' });
    expect(store.nextDeparture({ keys: [key], notBefore: progress, arrivalDelayMs: 0, rank: 'progress' })).toBeGreaterThanOrEqual(at + 1050);
    expect(store.nextDeparture({ keys: [key], notBefore: progress, arrivalDelayMs: 0, rank: 'final' })).toBeLessThan(at + 1050);
  });
});

describe('a burst of first cards leaves a long window to the finals', () => {
  it('1 200 runs starting together on one Feishu-like route: first cards while the minute has room for every card still to send, and the finals of runs that end meanwhile go at once', () => {
    const store = new InMemoryBudgetStore({ now: () => 0 });
    const key = { key: 'create', windows: FEISHU_ROUTE };
    const at = 1_000_000;
    // Every eighth run ends between 20 s and 59 s; a run that ends before its first card was sent
    // sends its final as its one message.
    const runs = Array.from({ length: 1200 }, (_, i) => ({ start: at + Math.floor((i * 10_000) / 1200), end: i % 8 === 0 ? at + 20_000 + (i / 8) * 260 : Number.POSITIVE_INFINITY, sent: false }));
    const cardWaits: number[] = [];
    const finalWaits: number[] = [];
    const arrivals: number[] = [];
    // As the pump asks: each ms, finals first, then first cards (each counting the other cards still
    // to send, as the pump's send lane does), each only when its slot is due.
    for (let now = at; now < at + 60_000; now++) {
      const waiting = runs.filter((run) => !run.sent && run.start <= now);
      for (const run of waiting) {
        const rank = run.end <= now ? 'final' : 'first-card';
        const request = { keys: [key], notBefore: now, arrivalDelayMs: 20, rank, unsentCards: waiting.filter((other) => !other.sent).length - 1 } as const;
        if (store.nextDeparture(request) > now) continue;
        store.reserve(request);
        run.sent = true;
        arrivals.push(now + 20);
        if (rank === 'final') finalWaits.push(now - run.end);
        else cardWaits.push(now - run.start);
      }
    }
    // The first cards went at up to 50/s while the minute had a slot for every card still waiting
    // (about 8 s of the burst: 1 000 runs started by then); the finals of the runs that ended without
    // one went at once.
    expect(cardWaits.length).toBeGreaterThan(380);
    expect(Math.max(...cardWaits.slice(0, 300))).toBeLessThan(1000);
    expect(finalWaits.length).toBeGreaterThan(100);
    expect(Math.max(...finalWaits)).toBeLessThan(100);
    expect(maxCallsInWindow(arrivals, 1000)).toBeLessThanOrEqual(50);
    expect(maxCallsInWindow(arrivals, 60_000)).toBeLessThanOrEqual(1000);
  });
});

describe('cards still to send (unsentCards) hold first cards on the route only', () => {
  it("a first card leaves the route's minute to the cards waiting, but a group's own 20 a minute stays whole", () => {
    const store = new InMemoryBudgetStore({ now: () => 0 });
    const at = 1_000_000;
    const route = { key: 'create', windows: FEISHU_ROUTE };
    // Telegram-like: the bot's route, then one group's own window of 20 a minute.
    const group = { key: 'group:-100', windows: [{ limit: 20, intervalMs: 60_000 }] };
    for (let i = 0; i < 10; i++) store.reserve({ keys: [route, group], notBefore: at + i * 100, arrivalDelayMs: 0, rank: 'first-card' });
    const firstCard = (unsentCards: number) => store.nextDeparture({ keys: [route, group], notBefore: at + 2000, arrivalDelayMs: 0, rank: 'first-card', unsentCards });
    // 50 cards of other chats wait: the route's minute has room for them and this one, and the
    // group's window is not theirs: the group's pace alone decides (one call per 3.06 s).
    expect(firstCard(50)).toBe(firstCard(0));
    expect(firstCard(50)).toBeLessThan(at + 35_000);
    // 990 waiting would need every slot of the route's minute: this first card waits for it to slide.
    expect(firstCard(990)).toBeGreaterThan(at + 60_000);
  });
});

describe('first cards in a burst', () => {
  it('500 runs starting within 10 s on one Feishu-like app: first cards at up to 50/s, no window exceeded', { timeout: 60_000 }, async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    // Feishu's create and patch routes: each 50/s and 1 000/min of its own
    const channel = Object.assign(memoryChannel({ overrides: { budget: FEISHU_ROUTE }, latencyMs: 40 }), {
      budgetKeys: (call: { kind: string }) => [{ key: call.kind === 'send' ? 'app:create' : 'app:patch', windows: FEISHU_ROUTE }],
    });
    const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
    const opened = new Map<string, number>();
    for (let i = 0; i < 500; i++) {
      const title = `run ${i}`;
      opened.set(title, Date.now());
      cards.open('memory', undefined, { title }).toolStarted('t', 'shell', `{"command":"job ${i}"}`);
      await settle(20);
    }
    await settle(5000);
    const sends = channel.calls.filter((call) => call.op === 'send');
    expect(sends).toHaveLength(500);
    const firstCardWaits = sends.map((call) => call.at - opened.get(call.payload.title)!);
    // paced at 16.3/s the last would wait about 20 s; 50/s keeps up with the runs starting
    expect(p99(firstCardWaits)).toBeLessThan(2000);
    const sendTimes = sends.map((call) => call.at);
    expect(Math.max(...sendTimes) - Math.min(...sendTimes)).toBeLessThan(12_000);
    for (const route of ['send', 'update'] as const) {
      const times = channel.calls.filter((call) => call.op === route).map((call) => call.at);
      expect(maxCallsInWindow(times, 1000)).toBeLessThanOrEqual(50);
      expect(maxCallsInWindow(times, 60_000)).toBeLessThanOrEqual(1000);
    }
    expect(channel.calls.filter((call) => call.failure === 'rate-limited')).toHaveLength(0);
    const done = cards.shutdown('test over');
    await settle(10_000);
    await done;
  });
});

/**
 * One app, four processes: A1–A3 keep 40 cards each changing every 100 ms (their updates fill the
 * route many times over), B has one card. Each process is a composition of its own; `shared` gives
 * them one budget store.
 */
async function fourProcesses(shared: boolean) {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  const overrides = { budget: FEISHU_ROUTE, perCardIntervalMs: 250 };
  const store = new InMemoryBudgetStore();
  const channels: MemoryChannel[] = Array.from({ length: 4 }, () => memoryChannel({ overrides, latencyMs: 30 }));
  const products = channels.map((channel) => {
    const parent = createContainer();
    if (shared) parent.register(TOKENS.BudgetStore, { useValue: store });
    return createProgressCards({ channels: [channel], logger: silentLogger, env: {}, parent });
  });
  const busy = products.slice(0, 3).flatMap((product, p) => Array.from({ length: 40 }, (_, i) => product.open('memory', undefined, { title: `A${p} ${i}` })));
  const endings: { title: string; ended: number }[] = [];
  for (let step = 0; step < 120; step++) {
    for (const [i, run] of busy.entries()) run.toolStarted(`s${step}.${i}`, 'shell', `{"command":"step ${step}"}`);
    if (step % 20 === 0) {
      // B's card starts while A's updates fill the route, shows a tool, and ends 1 s later
      const card = products[3]!.open('memory', undefined, { title: `B ${step}` });
      card.toolStarted('t', 'shell', '{"command":"make"}');
      await settle(1000);
      const ended = Date.now();
      card.complete(`done ${step}`);
      endings.push({ title: `B ${step}`, ended });
    }
    await settle(100);
  }
  for (const run of busy) run.complete('ok');
  await settle(120_000);
  const calls = channels.flatMap((channel) => channel.calls.map((call) => call.at));
  // from the run's end to its final state's call reaching the platform
  const finalWaits = endings.map(({ title, ended }) => {
    const call = channels[3]!.calls.find((made) => made.payload.title === title && made.payload.status === 'completed');
    return call ? call.at - ended : Number.POSITIVE_INFINITY;
  });
  return { finalWaits, calls, busyCalls: channels.slice(0, 3).reduce((sum, channel) => sum + channel.calls.length, 0) };
}

describe('finals first across processes sharing one budget store', () => {
  it("process B's finals are not held behind the updates of processes A1–A3, and together they keep the limit", { timeout: 60_000 }, async () => {
    const { finalWaits, calls, busyCalls } = await fourProcesses(true);
    // A1–A3 did fill the route: about 16 calls a second (its paced rate) over 18 s
    expect(busyCalls).toBeGreaterThan(18 * 15);
    expect(finalWaits).toHaveLength(6);
    // each final: its call reaching the platform (30 ms) plus at most two paced slots (61.2 ms at 16.3/s)
    for (const wait of finalWaits) expect(wait).toBeLessThanOrEqual(2 * 30 + 2 * 61.2);
    expect(maxCallsInWindow(calls, 1000)).toBeLessThanOrEqual(50);
    expect(maxCallsInWindow(calls, 60_000)).toBeLessThanOrEqual(1000);
  });
});
