/**
 * A Redis outage many leases long in the middle of 3 runs of one process (a one-process
 * deployment: nobody else can take its cards over), on a real redis-server frozen with SIGSTOP and
 * the Feishu emulator: the cards wait while their lease may have expired, then deliver their finals
 * once Redis answers. The case is a 2-minute outage against the default 30 s lease; this
 * test keeps the ratio with a 1.5 s lease and an 8 s outage (set PROGRESSCARD_OUTAGE_MS=120000 to
 * run the 2 minutes, and PROGRESSCARD_LEASE_MS=30000 for the default lease). Outcomes are asserted, not durations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgressCards, type Logger } from '@progresscard/core';
import { startFeishuEmulator, type FeishuEmulator } from '@progresscard/emulator';
import { feishu } from '@progresscard/plugin-feishu';
import { redisStore } from '@progresscard/redis';
import { startTestRedis, uniquePrefix, type TestRedis } from '../../packages/redis/test/support/test-redis.js';
import { setTimeout as sleep } from 'node:timers/promises';

const APP = { appId: 'cli_store_outage', appSecret: 'store-outage-secret' };
const LEASE_MS = Number(process.env.PROGRESSCARD_LEASE_MS ?? 1500);
const OUTAGE_MS = Number(process.env.PROGRESSCARD_OUTAGE_MS ?? 8000);

let redis: TestRedis;
let emulator: FeishuEmulator;

beforeAll(async () => {
  redis = await startTestRedis();
  emulator = await startFeishuEmulator({ apps: [APP] });
}, 60_000);
afterAll(async () => {
  redis?.resume();
  await emulator?.close();
  await redis?.stop();
});

const shown = (messageId: string) => JSON.stringify(emulator.message(messageId)?.card);

describe.skipIf(process.env.REDIS_URL !== undefined)('a Redis outage longer than the lease, one process', () => {
  it('ends with every final delivered and no card left running', async () => {
    const warnings: string[] = [];
    const logger: Logger = { debug: () => {}, warn: (message) => void warnings.push(message), error: (message) => void warnings.push(message) };
    const store = await redisStore({ url: redis.url, keyPrefix: uniquePrefix('outage'), logger });
    const cards = createProgressCards({
      logger,
      env: {},
      store,
      leaseTtlMs: LEASE_MS,
      channels: [feishu({ ...APP, domain: emulator.baseUrl, receiveId: 'oc_outage', mode: 'message', tickMs: 1000 })],
    });
    const runs = [0, 1, 2].map((index) => {
      const card = cards.open('feishu', undefined, { runId: `outage-${index}`, locale: 'en' });
      card.push({ type: 'run.started', title: `run ${index}` });
      card.push({ type: 'tool.started', callId: 'c1', name: 'shell', args: { command: `make ${index}` } });
      return card;
    });
    await expect.poll(() => runs.every((card) => card.message !== undefined), { timeout: 15_000 }).toBe(true);
    await expect.poll(async () => (await store.cards.list()).length, { timeout: 15_000 }).toBe(3);

    redis.pause();
    // The runs end in the middle of the outage.
    await sleep(OUTAGE_MS / 2);
    for (const [index, card] of runs.entries()) {
      card.push({ type: 'tool.finished', callId: 'c1', summary: 'built' });
      card.push({ type: 'run.completed', answer: `outage answer ${index}` });
    }
    await sleep(OUTAGE_MS / 2);
    // Nothing was delivered while the leases may have expired: the cards still show the run.
    for (const card of runs) expect(shown(card.message!.id)).not.toContain('outage answer');
    redis.resume();

    const finals = await Promise.all(runs.map((card) => card.finalDelivery));
    expect(finals.map((final) => [final.ok, final.status])).toEqual([[true, 'completed'], [true, 'completed'], [true, 'completed']]);
    for (const [index, card] of runs.entries()) {
      expect(shown(card.message!.id)).toContain(`outage answer ${index}`);
      expect(shown(card.message!.id)).not.toMatch(/running/i);
    }
    expect(emulator.messages()).toHaveLength(3);
    expect(cards.diagnostics().openCards).toBe(0);
    await expect.poll(async () => (await store.cards.list()).length, { timeout: 15_000 }).toBe(0);
    expect(warnings.some((line) => line.includes('card store unavailable'))).toBe(true);
    await cards.shutdown({ deadlineMs: 2000 });
    await store.close();
  }, 60_000 + 2 * OUTAGE_MS);
});
