/**
 * A deploy that moves the Feishu channel from one app into an app pool while a process is killed
 * mid-run, with a real redis-server: the new process (a pool listing the old app first) resumes one
 * run on its message and ends the other as interrupted; neither is left running or in the store
 * (issue 30: stored cards of the old app id failed with "unknown channel" and kept spinning).
 */
import { describe, expect, it } from 'vitest';
import { uniquePrefix } from '../../packages/redis/test/support/test-redis.js';
import { killWorld } from './support.js';

const APP = { appId: 'cli_pool_move_1', appSecret: 'pool-move-secret-1' };
const ADDED = { appId: 'cli_pool_move_2', appSecret: 'pool-move-secret-2' };
const BUDGET = [{ limit: 50, intervalMs: 1000 }];

const world = killWorld({ apps: [APP, ADDED] });
const shown = world.shown;

describe('one app becomes an app pool across a kill -9', () => {
  it('the pool resumes one run on its message through app 1 and ends the other; the warning names the move', async () => {
    const common = { redisUrl: world.redis.url, keyPrefix: uniquePrefix('pool-move'), feishuBaseUrl: world.emulator.baseUrl, ...APP, budget: BUDGET, leaseTtlMs: 2000, orphanGraceMs: 4000 };
    const first = world.start({ ...common, mode: 'hold', name: 'h', runs: 2, startAt: 0 });
    const { messages } = (await first.next('ready')) as unknown as { messages: Record<string, string> };
    const resumedId = messages['h-0']!;
    const orphanId = messages['h-1']!;
    await first.kill();

    const second = world.start({ ...common, mode: 'resume', name: 'r', runs: 0, startAt: 0, resumeRunIds: ['h-0'], poolApps: [ADDED] });
    expect(await second.next('resumed')).toMatchObject({ runId: 'h-0', message: resumedId });
    const done = await second.next('done');
    expect(done).toMatchObject({ finals: 1, ok: 1, errors: [] });
    expect((done.warnings as string[]).some((line) => line.includes('"feishu-app1"') && line.includes('"feishu"'))).toBe(true);

    expect(world.emulator.messages()).toHaveLength(2);
    expect(shown(resumedId)).toContain('resumed answer h-0');
    expect(shown(orphanId)).toContain('interrupted by a restart');
    for (const id of [resumedId, orphanId]) expect(shown(id)).not.toMatch(/running/);
    expect(world.emulator.calls({ outcome: 'rejected' })).toEqual([]);
  }, 180_000);
});
