/**
 * RedisBudgetStore against a real redis-server: the Lua script paces exactly like core's
 * InMemoryBudgetStore, clients of several processes share one budget atomically, pauses are shared,
 * and an outage falls back to a local budget at a quarter of the limits with one warning.
 * Departures are compared as numbers (the store's schedule), never as wall-time waits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetSafetyMarginMs, InMemoryBudgetStore, type BudgetKey, type SlotRequest } from '@progresscard/core/store';
import { recordingLogger } from '@progresscard/core/testing';
import { redisStore, type RedisStore } from '../src/index.js';
import { startTestRedis, uniquePrefix, type TestRedis } from './support/test-redis.js';

let redis: TestRedis;
const opened: RedisStore[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
}, 60_000);
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await redis.stop();
});

async function open(prefix: string, logger = recordingLogger()): Promise<RedisStore> {
  const store = await redisStore({ url: redis.url, keyPrefix: prefix, logger });
  opened.push(store);
  return store;
}

const FEISHU_PATCH: BudgetKey = { key: 'feishu:cli_test:patch', windows: [{ limit: 50, intervalMs: 1000 }, { limit: 1000, intervalMs: 60_000 }] };
const PER_MESSAGE = (id: string): BudgetKey => ({ key: `feishu:message:${id}`, windows: [{ limit: 5, intervalMs: 1000 }] });
const T0 = 1_800_000_000_000;
/** A script that keeps Redis busy for 2 ms of its clock. */
const BUSY_2_MS = "local t = redis.call('TIME') local start = t[1] * 1000000 + t[2] repeat local n = redis.call('TIME') until n[1] * 1000000 + n[2] - start >= 2000 return 1";

/** Arrivals of one key that fall in some window of `spanMs` more than `limit` times. */
function overfull(arrivals: number[], limit: number, spanMs: number): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let worst = 0;
  for (let i = 0; i + limit < sorted.length; i += 1) if (sorted[i + limit]! - sorted[i]! < spanMs) worst += 1;
  return worst;
}

describe('RedisBudgetStore', () => {
  it('follows a key whose windows change (limits a platform announced at run time) like the in-memory store', async () => {
    const store = await open(uniquePrefix('announced'));
    const memory = new InMemoryBudgetStore();
    // Discord-style: 5 per 5 s announced first, then lowered to 2 per 5 s, then raised to 8 per 2 s
    const windows = (i: number) => (i < 6 ? [{ limit: 5, intervalMs: 5000 }] : i < 12 ? [{ limit: 2, intervalMs: 5000 }] : [{ limit: 8, intervalMs: 2000 }]);
    const departures: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const request: SlotRequest = { keys: [{ key: 'discord:app:bucket:b1', windows: windows(i) }], notBefore: T0, arrivalDelayMs: 10 };
      const fromRedis = await store.budgets.reserve(request);
      expect(fromRedis).toBe(memory.reserve(request));
      departures.push(fromRedis);
    }
    // under the lowered limit, no 5 s window (widened by the margin) holds more than 2 of its calls
    expect(overfull(departures.slice(6, 12), 2, 5000 + budgetSafetyMarginMs(5000))).toBe(0);
  });

  it('gives the same departures as the in-memory store for the same reservations', async () => {
    const store = await open(uniquePrefix('same'));
    const memory = new InMemoryBudgetStore();
    const requests: SlotRequest[] = Array.from({ length: 120 }, (_, i) => ({
      keys: [FEISHU_PATCH, PER_MESSAGE(`om_${i % 3}`)],
      notBefore: T0 + i * 7,
      arrivalDelayMs: i % 5 === 0 ? 40 : 10,
    }));
    const fromRedis: number[] = [];
    const fromMemory: number[] = [];
    for (const request of requests) {
      fromRedis.push(await store.budgets.reserve(request));
      fromMemory.push(memory.reserve(request));
    }
    // Equal up to the 17 significant digits the script's reply carries.
    expect(fromRedis.map((t) => t - T0)).toEqual(fromMemory.map((t) => expect.closeTo(t - T0, 3)));
    expect(new Set(fromRedis).size).toBe(requests.length);
  });

  it("a first card leaves a minute's slot for each other card still to send (unsentCards), as the in-memory store does", async () => {
    const store = await open(uniquePrefix('unsent'));
    const memory = new InMemoryBudgetStore();
    const create: BudgetKey = { key: 'feishu:cli_test:create', windows: FEISHU_PATCH.windows };
    // 700 first cards of a burst: the minute has 300 slots left.
    for (let i = 0; i < 700; i += 1) {
      const request: SlotRequest = { keys: [create], notBefore: T0 + i * 20, arrivalDelayMs: 0, rank: 'first-card' };
      expect(await store.budgets.reserve(request)).toBe(memory.reserve(request));
    }
    const now = T0 + 20_000;
    const firstCard = (unsentCards: number): SlotRequest => ({ keys: [create], notBefore: now, arrivalDelayMs: 0, rank: 'first-card', unsentCards });
    // 250 other cards wait to send: the next first card may still go (700 + 1 ≤ 1000 − 250) …
    expect(await store.budgets.nextDeparture(firstCard(250))).toBeLessThan(now + 100);
    // … with 350 waiting it waits for the minute to slide, and a final still goes at once.
    const held = await store.budgets.nextDeparture(firstCard(350));
    expect(held).toBeGreaterThan(T0 + 60_000);
    expect(held).toBe(memory.nextDeparture(firstCard(350)));
    expect(await store.budgets.nextDeparture({ keys: [create], notBefore: now, arrivalDelayMs: 0, rank: 'final' })).toBeLessThan(now + 100);
  });

  it('four clients reserving at once never put more calls in a window than its limit', async () => {
    const prefix = uniquePrefix('shared');
    // 200 scripts queued at once: on a busy machine the last answers come seconds later, and Redis
    // answering them is not an outage (no warning, no local fallback), however long the last one waits.
    const loggers = [0, 1, 2, 3].map(() => recordingLogger({ levels: ['warn', 'error'] }));
    const stores = await Promise.all(loggers.map((logger) => open(prefix, logger)));
    const key: BudgetKey = { key: 'dingtalk:app:update', windows: [{ limit: 20, intervalMs: 1000 }] };
    const departures = await Promise.all(
      stores.flatMap((store) => Array.from({ length: 50 }, () => store.budgets.reserve({ keys: [key], notBefore: T0, arrivalDelayMs: 0 }))),
    );
    expect(loggers.flatMap((logger) => logger.lines)).toEqual([]);
    expect(new Set(departures).size).toBe(200);
    expect(overfull(departures, 20, 1000 + budgetSafetyMarginMs(1000))).toBe(0);
    // Paced, not burst: 200 calls at 20 per widened second take about ten seconds of schedule.
    expect(Math.max(...departures) - T0).toBeGreaterThan(9 * 1050);
  });

  it('serves finals of one process ahead of the updates three others keep taking, and keeps the same departures as the in-memory store', async () => {
    const prefix = uniquePrefix('ranks');
    const stores = await Promise.all([0, 1, 2, 3].map(() => open(prefix)));
    const memory = new InMemoryBudgetStore();
    const key: BudgetKey = FEISHU_PATCH;
    const finalsAt = [T0 + 2000, T0 + 4000, T0 + 6000];
    const waits: number[] = [];
    const arrivals: number[] = [];
    // Like each process's pump: a call is reserved once the store says its slot is due. Processes
    // 1–3 always have updates waiting and look first at every step; process 4 has the finals.
    const take = async (store: RedisStore, request: SlotRequest): Promise<boolean> => {
      const due = await store.budgets.nextDeparture(request);
      expect(due).toBe(memory.nextDeparture(request));
      if (due > request.notBefore) return false;
      const departure = await store.budgets.reserve(request);
      expect(departure).toBe(memory.reserve(request));
      arrivals.push(departure);
      return true;
    };
    for (let t = T0; t < T0 + 7000; t += 5) {
      for (const store of stores.slice(0, 3)) await take(store, { keys: [key], notBefore: t, arrivalDelayMs: 0, rank: 'progress' });
      const final = finalsAt[waits.length];
      if (final !== undefined && final <= t && (await take(stores[3]!, { keys: [key], notBefore: t, arrivalDelayMs: 0, rank: 'final' }))) waits.push(t - final);
    }
    expect(waits).toHaveLength(3);
    // each final within one paced slot (61.2 ms), however many updates the others have waiting
    for (const wait of waits) expect(wait).toBeLessThanOrEqual(65);
    expect(overfull(arrivals, 50, 1000 + budgetSafetyMarginMs(1000))).toBe(0);
    // and the updates used the route meanwhile at its paced rate (16.3/s)
    expect(arrivals.length).toBeGreaterThan(6.5 * 15);
  }, 120_000);

  it('a re-booking uncounts the stale slot it replaces, as the in-memory store does', async () => {
    const prefix = uniquePrefix('rebook');
    const [first, second] = await Promise.all([open(prefix), open(prefix)]);
    const memory = new InMemoryBudgetStore();
    const keys = [FEISHU_PATCH];
    // A fractional arrival delay: the stale arrival is found by the exact number the script stored.
    const request = (notBefore: number, rank: SlotRequest['rank'] = 'final', replacesArrival?: number): SlotRequest => ({ keys, notBefore, arrivalDelayMs: 12.5, rank, ...(replacesArrival !== undefined && { replacesArrival }) });
    const booked: number[] = [];
    for (let i = 0; i < 50; i += 1) {
      const departure = await first!.budgets.reserve(request(T0));
      expect(departure).toBe(memory.reserve(request(T0)));
      booked.push(departure);
    }
    // Finals burst: the route's 50/s is full within 0.6 s, and the 51st call waits for the first to leave the window...
    const full = await second!.budgets.nextDeparture(request(T0 + 700));
    expect(full).toBeGreaterThan(T0 + 1000);
    // ...unless the first call left too late for its slot and books again in its place (another process).
    const stale = booked[0]!;
    const again = await second!.budgets.reserve(request(T0 + 700, 'final', stale + 12.5));
    expect(again).toBe(memory.reserve(request(T0 + 700, 'final', stale + 12.5)));
    expect(again).toBe(T0 + 700);
    // An arrival the store does not hold changes nothing.
    const unknown = await first!.budgets.reserve(request(T0 + 700, 'final', T0 - 99));
    expect(unknown).toBe(memory.reserve(request(T0 + 700, 'final', T0 - 99)));
    expect(unknown).toBeGreaterThan(T0 + 1000);
  });

  it('a re-booking finds the stale slot by the arrival its booking carried, at fractional times and after the arrival delay moved', async () => {
    const prefix = uniquePrefix('rebook-moved');
    const store = await open(prefix);
    const counted = () => store.client.llen(`${prefix}budget:${FEISHU_PATCH.key}`);
    for (let i = 0; i < 30; i += 1) {
      // Paced at 61.2 ms, with a fractional delay: departures and arrivals are fractions of a ms.
      const delay = 3.3 + 0.7 * i;
      const departure = await store.budgets.reserve({ keys: [FEISHU_PATCH], notBefore: T0 + 17.3 * i, arrivalDelayMs: delay });
      // The slot carries the arrival the store counted, as core's ChannelBudget computes it.
      const arrival = departure + delay;
      // The call leaves late; meanwhile the estimate rose by 25 ms. Its re-booking replaces its stale slot.
      await store.budgets.reserve({ keys: [FEISHU_PATCH], notBefore: departure + 500, arrivalDelayMs: delay + 25, replacesArrival: arrival });
      expect(await counted()).toBe(i + 1);
    }
  });

  it('a pause set by one process holds the others back', async () => {
    const prefix = uniquePrefix('pause');
    const [first, second] = await Promise.all([open(prefix), open(prefix)]);
    await first!.budgets.pauseUntil(FEISHU_PATCH.key, T0 + 5000);
    expect(await second!.budgets.nextDeparture({ keys: [FEISHU_PATCH], notBefore: T0, arrivalDelayMs: 0 })).toBe(T0 + 5000);
    expect(await second!.budgets.reserve({ keys: [FEISHU_PATCH], notBefore: T0, arrivalDelayMs: 0 })).toBe(T0 + 5000);
  });

  it('rejects a bad window with the key and field named', async () => {
    const store = await open(uniquePrefix('bad'));
    await expect(store.budgets.reserve({ keys: [{ key: 'k', windows: [{ limit: 0, intervalMs: 1000 }] }], notBefore: T0, arrivalDelayMs: 0 }))
      .rejects.toThrow('budget key k: windows[0].limit must be a positive integer, got 0');
  });

  it('a Redis that is only busy (its reply to a reservation comes after 2 s of scripts queued ahead) is waited for, not taken for down', async () => {
    const logger = recordingLogger({ levels: ['warn', 'error'] });
    const store = await open(uniquePrefix('busy'), logger);
    // 1000 scripts of 2 ms each queued on the connection ahead of the reservation, as on a machine at
    // load 30: Redis keeps answering them (it replies after each batch it reads, 16 KB of commands),
    // and the reservation's reply comes 2 s later (a command timeout of 1 s took this for an outage).
    const busy = Array.from({ length: 1000 }, () => store.client.eval(BUSY_2_MS, 0));
    const key: BudgetKey = { key: 'feishu:cli_busy:patch', windows: [{ limit: 40, intervalMs: 1000 }] };
    const departure = await store.budgets.reserve({ keys: [key], notBefore: T0, arrivalDelayMs: 0 });
    await Promise.all(busy);
    expect(departure).toBe(T0);
    expect(store.budgets.usingFallback).toBe(false);
    expect(logger.lines).toEqual([]);
    // The reservation was counted in Redis.
    expect(await store.budgets.nextDeparture({ keys: [key], notBefore: T0, arrivalDelayMs: 0 })).toBeGreaterThan(T0);
  });

  it.skipIf(process.env.REDIS_URL !== undefined)('a frozen Redis (connection open, nothing answered) is taken for down within the silence timeout, and shared again once it answers', async () => {
    const logger = recordingLogger();
    const store = await open(uniquePrefix('frozen'), logger);
    const dropped: string[] = [];
    store.client.on('error', (error: Error) => dropped.push(error.message));
    const key: BudgetKey = { key: 'feishu:cli_frozen:patch', windows: [{ limit: 40, intervalMs: 1000 }] };
    await store.budgets.reserve({ keys: [key], notBefore: Date.now(), arrivalDelayMs: 0 });
    redis.pause();
    try {
      const during = await store.budgets.reserve({ keys: [key], notBefore: Date.now(), arrivalDelayMs: 0 });
      expect(during).toBeGreaterThan(0);
      expect(store.budgets.usingFallback).toBe(true);
      expect(logger.at('warn')).toHaveLength(1);
      expect(dropped[0]).toBe('Redis sent nothing for 5000 ms while commands waited for their replies (silenceTimeoutMs)');
    } finally {
      redis.resume();
    }
    await expect.poll(() => store.client.status, { timeout: 10_000 }).toBe('ready');
    await store.budgets.reserve({ keys: [key], notBefore: Date.now(), arrivalDelayMs: 0 });
    expect(store.budgets.usingFallback).toBe(false);
  });

  it.skipIf(process.env.REDIS_URL !== undefined)('keeps pacing on a local quarter budget through an outage, warns once, and goes back to Redis', async () => {
    const logger = recordingLogger();
    const store = await open(uniquePrefix('outage'), logger);
    const key: BudgetKey = { key: 'feishu:cli_outage:patch', windows: [{ limit: 40, intervalMs: 1000 }] };
    const now = Date.now();
    await store.budgets.reserve({ keys: [key], notBefore: now, arrivalDelayMs: 0 });
    await redis.kill();
    try {
      const during: number[] = [];
      for (let i = 0; i < 30; i += 1) during.push(await store.budgets.reserve({ keys: [key], notBefore: now, arrivalDelayMs: 0 }));
      expect(store.budgets.usingFallback).toBe(true);
      // A quarter of 40 per second: 10 per widened second on the local budget.
      expect(overfull(during, 10, 1000 + budgetSafetyMarginMs(1000))).toBe(0);
      expect(during.at(-1)! - now).toBeGreaterThan(2 * 1050);
      expect(logger.at('warn')).toHaveLength(1);
      expect(logger.entries[0]!.message).toContain('pacing this process at 0.25 of each limit');
    } finally {
      await redis.start();
    }
    await expect.poll(() => store.client.status, { timeout: 10_000 }).toBe('ready');
    await store.budgets.reserve({ keys: [key], notBefore: Date.now(), arrivalDelayMs: 0 });
    expect(store.budgets.usingFallback).toBe(false);
    expect(logger.at('warn')).toHaveLength(1);
  });
});
