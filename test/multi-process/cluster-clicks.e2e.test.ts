/**
 * Three real processes of one Feishu app on one real Redis: the platform hands each card callback
 * to any process (the emulator in cluster mode: long-connection pushes to a random connection, HTTP
 * callbacks round-robin over the processes' request URLs), and the process that owns the card
 * decides. Approve, deny, answer and stop each reach the agent of the owning process exactly once;
 * a click after the decision hears who decided; a click for a card whose process was killed -9 is
 * answered "not answering", and once another process resumed the card, that process handles it.
 * The assertions are about outcomes (toasts, decisions), never about durations.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFeishuEmulator, type FeishuEmulator } from '@progresscard/emulator';
import { startTestRedis, uniquePrefix, type TestRedis } from '../../packages/redis/test/support/test-redis.js';
import { startWorker, type Worker } from './support.js';
import type { WorkerConfig } from './fixtures/worker.js';

// The SDK's long connection needs an app id of the form cli_ + 16 hex digits.
const APP = { appId: 'cli_c1a55e7c11c45a01', appSecret: 'cluster-clicks-secret' };
const BUDGET = [{ limit: 50, intervalMs: 1000 }];

let redis: TestRedis;
let emulator: FeishuEmulator;
let workers: Worker[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
  emulator = await startFeishuEmulator({ apps: [APP], longConnection: { reconnectJitterSeconds: 0, reconnectIntervalSeconds: 1 } });
}, 60_000);
afterEach(async () => {
  await Promise.all(workers.map((worker) => worker.kill()));
  workers = [];
});
afterAll(async () => {
  await emulator?.close();
  await redis?.stop();
});

type Extra = Partial<WorkerConfig> & Pick<WorkerConfig, 'name'>;

function start(keyPrefix: string, extra: Extra): Worker {
  const worker = startWorker({
    mode: 'interactive', redisUrl: redis.url, keyPrefix, feishuBaseUrl: emulator.baseUrl, ...APP, budget: BUDGET, runs: 0, startAt: 0,
    leaseTtlMs: 2000, orphanGraceMs: 120_000, ...extra,
  });
  workers.push(worker);
  return worker;
}

/** Starts the processes and waits until every card shows its buttons. */
async function startCluster(keyPrefix: string, callbacks: 'long-connection' | 'http', asks: NonNullable<WorkerConfig['asks']>) {
  const cluster = ['p0', 'p1', 'p2'].map((name) => start(keyPrefix, { name, callbacks, asks }));
  const ready = await Promise.all(cluster.map((worker) => worker.next('ready')));
  const messages = Object.assign({}, ...ready.map((line) => line.messages)) as Record<string, string>;
  for (const id of Object.values(messages)) await expect.poll(() => JSON.stringify(emulator.message(id)?.card), { timeout: 60_000 }).toMatch(/Approve|Send|Stop/);
  return { cluster, messages, urls: ready.map((line) => line.callbackUrl as string) };
}

const toast = (result: { response?: Record<string, unknown> }) => result.response?.toast as { type: string; content: string } | undefined;

describe('clicks in a cluster of three processes', () => {
  it('long connection, each push to a random process: approve, deny, answer and stop reach the owner once', async () => {
    emulator.configureCallbacks({ mode: 'long-connection', cluster: true, timeoutMs: 15_000 });
    const { cluster, messages } = await startCluster(uniquePrefix('cluster-lc'), 'long-connection', ['approval', 'ask', 'stop']);
    const click = (runId: string, button: string, user = 'ou_bob', extra: { input?: string; shownCard?: Record<string, unknown> } = {}) =>
      emulator.click({ messageId: messages[runId]!, user, name: user === 'ou_bob' ? 'Bob' : 'Eve', button, ...extra });

    const shownBefore = emulator.message(messages['p0-approval']!)!.card as Record<string, unknown>;
    expect(toast(await click('p0-approval', 'Approve'))).toEqual({ type: 'success', content: 'Sent: Approve' });
    expect(toast(await click('p1-approval', 'Deny'))).toEqual({ type: 'success', content: 'Sent: Deny' });
    expect(toast(await click('p0-ask', 'Send', 'ou_bob', { input: 'v1.2.0' }))).toEqual({ type: 'success', content: 'Sent: v1.2.0' });
    expect(toast(await click('p1-stop', '⏹ Stop'))).toEqual({ type: 'success', content: 'Stopping the run' });
    // Two users at once on one card: one decision, the other hears who decided.
    const race = await Promise.all([click('p2-approval', 'Approve', 'ou_bob'), click('p2-approval', 'Deny', 'ou_eve')]);
    expect(race.map((result) => toast(result)?.type).sort()).toEqual(['info', 'success']);
    expect(race.map((result) => toast(result)?.content).find((text) => text?.startsWith('Already decided by'))).toBeDefined();

    const [p0, p1, p2] = cluster as [Worker, Worker, Worker];
    await expect.poll(() => p0.seen('decision'), { timeout: 60_000 }).toEqual([expect.objectContaining({ runId: 'p0-approval', approved: true, by: 'ou_bob' })]);
    await expect.poll(() => p1.seen('decision'), { timeout: 60_000 }).toEqual([expect.objectContaining({ runId: 'p1-approval', approved: false, by: 'ou_bob' })]);
    await expect.poll(() => p0.seen('answer'), { timeout: 60_000 }).toEqual([expect.objectContaining({ runId: 'p0-ask', text: 'v1.2.0', by: 'ou_bob' })]);
    await expect.poll(() => p1.seen('stopped'), { timeout: 60_000 }).toEqual([expect.objectContaining({ runId: 'p1-stop', by: 'ou_bob' })]);
    await expect.poll(() => p2.seen('decision').length, { timeout: 60_000 }).toBe(1);
    // Nobody else was told anything.
    for (const worker of cluster) expect(worker.seen('decision').length + worker.seen('answer').length + worker.seen('stopped').length).toBeLessThanOrEqual(3);
    expect(p2.seen('stopped')).toEqual([]);

    // After the final, the old button (a client that has not caught up) hears who decided, in any process.
    await expect.poll(() => JSON.stringify(emulator.message(messages['p0-approval']!)?.card), { timeout: 60_000 }).toContain('deployed p0-approval');
    for (let i = 0; i < 3; i += 1) expect(toast(await click('p0-approval', 'Deny', 'ou_eve', { shownCard: shownBefore }))).toEqual({ type: 'info', content: 'Already decided by Bob' });
    expect(p0.seen('decision')).toHaveLength(1);
  }, 300_000);

  it('HTTP callbacks round-robin; a click for a killed process is answered, and handled by the process that resumed its card', async () => {
    const keyPrefix = uniquePrefix('cluster-http');
    const { cluster, messages, urls } = await startCluster(keyPrefix, 'http', ['approval', 'stop']);
    const [p0, p1, p2] = cluster as [Worker, Worker, Worker];
    // Round-robin starting at p1's URL: each click below lands in a process that does not own the card.
    emulator.configureCallbacks({ url: [urls[1]!, urls[2]!, urls[0]!], timeoutMs: 15_000 });
    const click = (runId: string, button: string) => emulator.click({ messageId: messages[runId]!, user: 'ou_bob', name: 'Bob', button });
    expect(toast(await click('p0-approval', 'Approve'))).toEqual({ type: 'success', content: 'Sent: Approve' });
    expect(toast(await click('p1-approval', 'Deny'))).toEqual({ type: 'success', content: 'Sent: Deny' });
    expect(toast(await click('p2-approval', 'Approve'))).toEqual({ type: 'success', content: 'Sent: Approve' });
    await expect.poll(() => p0.seen('decision'), { timeout: 60_000 }).toEqual([expect.objectContaining({ runId: 'p0-approval', approved: true })]);
    await expect.poll(() => p1.seen('decision'), { timeout: 60_000 }).toEqual([expect.objectContaining({ runId: 'p1-approval', approved: false })]);
    await expect.poll(() => p2.seen('decision'), { timeout: 60_000 }).toEqual([expect.objectContaining({ runId: 'p2-approval', approved: true })]);

    // p2 is killed; the load balancer drops its URL. A Stop click on its card cannot be decided yet.
    await p2.kill();
    emulator.configureCallbacks({ url: [urls[0]!, urls[1]!], timeoutMs: 15_000 });
    const early = await click('p2-stop', '⏹ Stop');
    expect(toast(early)).toEqual({ type: 'warning', content: expect.stringContaining('not answering') });

    // A new process resumes p2's run (after its lease ran out) and watches its Stop button again.
    const r = start(keyPrefix, { name: 'r', callbacks: 'http', asks: [], resumeRunIds: ['p2-stop'] });
    expect(await r.next('resumed')).toMatchObject({ runId: 'p2-stop', message: messages['p2-stop'] });
    // resume() resolves only once the process listens for clicks other processes hand it: the first press after it is decided.
    const late = await click('p2-stop', '⏹ Stop');
    expect(toast(late)).toEqual({ type: 'success', content: 'Stopping the run' });
    await expect.poll(() => r.seen('stopped'), { timeout: 60_000 }).toEqual([expect.objectContaining({ runId: 'p2-stop', by: 'ou_bob' })]);
    expect([...p0.seen('stopped'), ...p1.seen('stopped')]).toEqual([]);
  }, 300_000);
});
