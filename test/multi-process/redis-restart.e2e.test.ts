/**
 * Redis restarted (empty: no persistence) while a real process runs cards: the process keeps pacing
 * on its local fallback budget with one warning, goes back to Redis, and loses nothing: every final
 * is delivered and no call is rejected by the Feishu emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeishuEmulator, type FeishuEmulator } from '@progresscard/emulator';
import { startTestRedis, uniquePrefix, type TestRedis } from '../../packages/redis/test/support/test-redis.js';
import { startWorker, type Worker } from './support.js';

const APP = { appId: 'cli_redis_restart', appSecret: 'redis-restart-secret' };
const BUDGET = [{ limit: 50, intervalMs: 1000 }];
const RUNS = 40;
/** How long a worker may take to start and send, on a busy machine. */
const STARTUP_MS = 240_000;

let redis: TestRedis;
let emulator: FeishuEmulator;
let worker: Worker | undefined;

beforeAll(async () => {
  redis = await startTestRedis();
  emulator = await startFeishuEmulator({ apps: [APP], limits: { appWindows: BUDGET } });
}, 60_000);
afterAll(async () => {
  await worker?.kill();
  await emulator?.close();
  await redis?.stop();
});

describe.skipIf(process.env.REDIS_URL !== undefined)('Redis restarted mid-run', () => {
  it('every final is delivered, with one warning about the outage', async () => {
    const startAt = Date.now() + 4000;
    // A 15 s lease: renewals delayed by the outage and a busy machine must not let the process's own leases lapse.
    worker = startWorker({
      mode: 'steady', name: 's', redisUrl: redis.url, keyPrefix: uniquePrefix('restart'), feishuBaseUrl: emulator.baseUrl, ...APP,
      budget: BUDGET, runs: RUNS, runMs: 5000, startAt, leaseTtlMs: 15_000,
    });
    // Mid-run: the cards have sent their first messages when Redis goes away for a second. A worker
    // compiles the core, the plugin and the store from source with tsx at start: 4 s of CPU, which took
    // 90 s of wall time at load 35 on the 2-core machine, hence the long wait (a crash ends it at once).
    const exited = worker.exited.then((code) => Promise.reject(new Error(`worker exited (${code}) before sending half its messages`)));
    exited.catch(() => undefined);
    await Promise.race([expect.poll(() => emulator.messages().length, { timeout: STARTUP_MS, interval: 50 }).toBeGreaterThan(RUNS / 2), exited]);
    await redis.kill();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await redis.start();
    const done = await worker.next('done');
    expect(done).toMatchObject({ finals: RUNS, ok: RUNS, errors: [] });
    const warnings = done.warnings as string[];
    expect(warnings.filter((line) => line.includes('Redis budget store unavailable')), warnings.join('\n')).toHaveLength(1);
    const messages = emulator.messages();
    expect(messages).toHaveLength(RUNS);
    for (const message of messages) expect(JSON.stringify(message.card)).toMatch(/answer s-\d+/);
    expect(emulator.calls({ outcome: 'rejected' })).toEqual([]);
  }, STARTUP_MS + 180_000);
});
