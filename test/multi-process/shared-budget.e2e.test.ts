/**
 * Several real processes of one Feishu app, each with its own composition, share the app's budget
 * through Redis: under load the emulator (which enforces the same per-app limits) rejects nothing,
 * and every final lands. Size: PROGRESSCARD_LOAD_PROCESSES × PROGRESSCARD_LOAD_RUNS concurrent runs
 * (default 4 × 60); the budget is 50 calls/s per route on both sides: ~480 calls paced over ~10 s, where
 * four processes pacing alone would send four times that rate and meet rejections. (4 × 200 at 200/s took
 * 40–180 s of CPU-bound wall time on the 2-core machine for the same proof; the bench measures load.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeishuEmulator, type FeishuEmulator } from '@progresscard/emulator';
import { startTestRedis, uniquePrefix, type TestRedis } from '../../packages/redis/test/support/test-redis.js';
import { startWorker, type Worker } from './support.js';

const PROCESSES = Number(process.env.PROGRESSCARD_LOAD_PROCESSES ?? 4);
const RUNS = Number(process.env.PROGRESSCARD_LOAD_RUNS ?? 60);
const BUDGET = [{ limit: 50, intervalMs: 1000 }];
const APP = { appId: 'cli_multi_process', appSecret: 'multi-process-secret' };

let redis: TestRedis;
let emulator: FeishuEmulator;
const workers: Worker[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
  emulator = await startFeishuEmulator({ apps: [APP], limits: { appWindows: BUDGET } });
}, 60_000);
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.kill()));
  await emulator?.close();
  await redis?.stop();
});

describe(`${PROCESSES} processes sharing one app budget in Redis`, () => {
  it(`${PROCESSES} × ${RUNS} concurrent runs: no rate-limit rejection, every final delivered`, async () => {
    const keyPrefix = uniquePrefix('load');
    const startAt = Date.now() + 6000;
    for (let i = 0; i < PROCESSES; i += 1) {
      workers.push(startWorker({
        mode: 'load', name: `p${i}`, redisUrl: redis.url, keyPrefix, feishuBaseUrl: emulator.baseUrl, ...APP, budget: BUDGET, runs: RUNS, startAt,
      }));
    }
    const done = await Promise.all(workers.map((worker) => worker.next('done')));
    for (const line of done) expect(line).toMatchObject({ finals: RUNS, ok: RUNS, errors: [] });
    const rejected = emulator.calls({ outcome: 'rejected' });
    expect(rejected.map((call) => `${call.route} ${call.code}`)).toEqual([]);
    const messages = emulator.messages();
    expect(messages).toHaveLength(PROCESSES * RUNS);
    const finals = messages.filter((message) => /answer p\d+-\d+/.test(JSON.stringify(message.card)));
    expect(finals).toHaveLength(PROCESSES * RUNS);
    console.log(`multi-process load: ${PROCESSES} × ${RUNS} runs, ${emulator.calls().length} calls, ${Math.round((Date.now() - startAt) / 100) / 10} s from start to the last final`);
  }, 300_000);
});
