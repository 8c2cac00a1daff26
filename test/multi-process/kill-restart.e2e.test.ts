/**
 * `kill -9` of a real process mid-run, then a new process on the same Redis: the run it resumes
 * continues on the same message to its final; the run nobody resumes is ended as interrupted after
 * the grace. Neither message is left running (asserted on the Feishu emulator's stored messages).
 */
import { describe, expect, it } from 'vitest';
import { uniquePrefix } from '../../packages/redis/test/support/test-redis.js';
import { killWorld } from './support.js';

const APP = { appId: 'cli_kill_restart', appSecret: 'kill-restart-secret' };
const BUDGET = [{ limit: 50, intervalMs: 1000 }];

const world = killWorld({ apps: [APP] });
const shown = world.shown;

describe('a process killed mid-run', () => {
  it('after kill -9, the new process resumes one run on its message and ends the other as interrupted', async () => {
    const common = { redisUrl: world.redis.url, keyPrefix: uniquePrefix('kill'), feishuBaseUrl: world.emulator.baseUrl, ...APP, budget: BUDGET, leaseTtlMs: 2000, orphanGraceMs: 4000 };
    const first = world.start({ ...common, mode: 'hold', name: 'h', runs: 2, startAt: 0 });
    const { messages } = (await first.next('ready')) as unknown as { messages: Record<string, string> };
    const resumedId = messages['h-0']!;
    const orphanId = messages['h-1']!;
    expect(shown(resumedId)).toContain('running');
    await first.kill();

    const second = world.start({ ...common, mode: 'resume', name: 'r', runs: 0, startAt: 0, resumeRunIds: ['h-0'] });
    expect(await second.next('resumed')).toMatchObject({ runId: 'h-0', message: resumedId });
    expect(await second.next('done')).toMatchObject({ finals: 1, ok: 1, errors: [] });

    // No new message: the resumed run's final is on its first message, the orphan shows why it ended.
    expect(world.emulator.messages()).toHaveLength(2);
    expect(shown(resumedId)).toContain('resumed answer h-0');
    expect(shown(resumedId)).toContain('212 passed');
    expect(shown(orphanId)).toContain('interrupted by a restart');
    for (const id of [resumedId, orphanId]) expect(shown(id)).not.toMatch(/running/);
    expect(world.emulator.calls({ outcome: 'rejected' })).toEqual([]);
  }, 180_000);
});
