/**
 * `kill -9` of a real process mid-run, then a new process on the same Redis: the run it resumes
 * continues on the same message to its final; the run nobody resumes is ended as interrupted after
 * the grace. Neither message is left running (asserted on the Feishu emulator's stored messages).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeishuEmulator, type FeishuEmulator } from '@progresscard/emulator';
import { startTestRedis, uniquePrefix, type TestRedis } from '../../packages/redis/test/support/test-redis.js';
import { startWorker, type Worker } from './support.js';

const APP = { appId: 'cli_kill_restart', appSecret: 'kill-restart-secret' };
const BUDGET = [{ limit: 50, intervalMs: 1000 }];

let redis: TestRedis;
let emulator: FeishuEmulator;
const workers: Worker[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
  emulator = await startFeishuEmulator({ apps: [APP] });
}, 60_000);
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.kill()));
  await emulator?.close();
  await redis?.stop();
});

const shown = (messageId: string) => JSON.stringify(emulator.message(messageId)?.card);

describe('a process killed mid-run', () => {
  it('after kill -9, the new process resumes one run on its message and ends the other as interrupted', async () => {
    const common = { redisUrl: redis.url, keyPrefix: uniquePrefix('kill'), feishuBaseUrl: emulator.baseUrl, ...APP, budget: BUDGET, leaseTtlMs: 2000, orphanGraceMs: 4000 };
    const first = startWorker({ ...common, mode: 'hold', name: 'h', runs: 2, startAt: 0 });
    workers.push(first);
    const { messages } = (await first.next('ready')) as unknown as { messages: Record<string, string> };
    const resumedId = messages['h-0']!;
    const orphanId = messages['h-1']!;
    expect(shown(resumedId)).toContain('running');
    await first.kill();

    const second = startWorker({ ...common, mode: 'resume', name: 'r', runs: 0, startAt: 0, resumeRunIds: ['h-0'] });
    workers.push(second);
    expect(await second.next('resumed')).toMatchObject({ runId: 'h-0', message: resumedId });
    expect(await second.next('done')).toMatchObject({ finals: 1, ok: 1, errors: [] });

    // No new message: the resumed run's final is on its first message, the orphan shows why it ended.
    expect(emulator.messages()).toHaveLength(2);
    expect(shown(resumedId)).toContain('resumed answer h-0');
    expect(shown(resumedId)).toContain('212 passed');
    expect(shown(orphanId)).toContain('interrupted by a restart');
    for (const id of [resumedId, orphanId]) expect(shown(id)).not.toMatch(/running/);
    expect(emulator.calls({ outcome: 'rejected' })).toEqual([]);
  }, 180_000);
});
