/**
 * Two compositions on one real Redis and the Feishu emulator: A loses its Redis connection mid-run
 * (it still reaches Feishu), B resumes A's run once the lease expired and completes it. A must stop
 * acting on the card before the lease could have expired and wait for the store: its ticks and its
 * shutdown's interrupted final never overwrite B's final.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgressCards, silentLogger } from '@progresscard/core';
import { startFeishuEmulator, type FeishuEmulator } from '@progresscard/emulator';
import { feishu } from '@progresscard/plugin-feishu';
import { redisStore } from '@progresscard/redis';
import { startTestRedis, uniquePrefix, type TestRedis } from '../../packages/redis/test/support/test-redis.js';
import { setTimeout as sleep } from 'node:timers/promises';

const APP = { appId: 'cli_lease_expiry', appSecret: 'lease-expiry-secret' };
const LEASE_MS = 1500;

let redis: TestRedis;
let emulator: FeishuEmulator;

beforeAll(async () => {
  redis = await startTestRedis();
  emulator = await startFeishuEmulator({ apps: [APP] });
}, 60_000);
afterAll(async () => {
  await emulator?.close();
  await redis?.stop();
});

const channel = () => feishu({ ...APP, domain: emulator.baseUrl, receiveId: 'oc_lease', mode: 'message' });

describe('a process cut off from Redis', () => {
  it('stops updating its card before another process resumes it, and never overwrites that final', async () => {
    const keyPrefix = uniquePrefix('lease-expiry');
    const storeA = await redisStore({ url: redis.url, keyPrefix, logger: silentLogger });
    const a = createProgressCards({ logger: silentLogger, env: {}, store: storeA, leaseTtlMs: LEASE_MS, channels: [channel()] });
    const card = a.open('feishu', undefined, { locale: 'en', runId: 'run-1' });
    card.push({ type: 'run.started', title: 'resume me' });
    card.push({ type: 'tool.started', callId: 'c1', name: 'shell', args: '{"command":"sleep 100"}' });
    await expect.poll(() => card.message, { timeout: 5000 }).toBeDefined();
    storeA.client.disconnect();
    // A finds its lease may have expired: it makes no call and waits for the store.
    await sleep(LEASE_MS + 500);

    const storeB = await redisStore({ url: redis.url, keyPrefix, logger: silentLogger });
    const b = createProgressCards({ logger: silentLogger, env: {}, store: storeB, leaseTtlMs: LEASE_MS, orphanGraceMs: 60_000, channels: [channel()] });
    const resumed = await b.resume('run-1');
    resumed.push({ type: 'tool.finished', callId: 'c1', summary: 'ok' });
    resumed.push({ type: 'run.completed', answer: 'RESUMED-ANSWER' });
    const final = await resumed.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    expect(final.message?.id).toBe(card.message!.id);

    // Longer than A's 3 s tick, then A shuts down: B's final stays on the message.
    await sleep(3500);
    await a.shutdown({ deadlineMs: 2000 });
    // A never reached the store again: its report says why the final was held back.
    expect(await card.finalDelivery).toMatchObject({ ok: false, error: expect.stringContaining('lease may have expired') });
    const shown = emulator.message(final.message!.id)!.content;
    expect(shown).toContain('RESUMED-ANSWER');
    expect(shown).not.toMatch(/interrupt|cancel/i);
    await b.shutdown({ deadlineMs: 2000 });
    await storeB.close();
    await storeA.close().catch(() => undefined);
  }, 30_000);
});
