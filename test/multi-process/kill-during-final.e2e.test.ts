/**
 * `kill -9` of a real process while its card's final is being retried (the Feishu emulator
 * answering 5xx to every update), then a new process on the same Redis: the run's end was stored
 * with the card, so the new process delivers the real answer on the same message (its orphan sweep,
 * nobody resuming the run) instead of ending it as interrupted.
 */
import { describe, expect, it } from 'vitest';
import { uniquePrefix } from '../../packages/redis/test/support/test-redis.js';
import { killWorld } from './support.js';

const APP = { appId: 'cli_kill_final', appSecret: 'kill-final-secret' };
const BUDGET = [{ limit: 50, intervalMs: 1000 }];

const world = killWorld({ apps: [APP] });
const shown = world.shown;

describe('a process killed during its final\'s retries', () => {
  // Two workers, each compiling the core, the plugin and the store from source with tsx at start: 4 s
  // of CPU each, which took 90 s of wall time at load 35 on the 2-core machine; hence the long timeouts.
  it('after kill -9 and a restart, the real answer is delivered on the same message', async () => {
    const common = { redisUrl: world.redis.url, keyPrefix: uniquePrefix('kill-final'), feishuBaseUrl: world.emulator.baseUrl, ...APP, budget: BUDGET, leaseTtlMs: 2000, orphanGraceMs: 3000 };
    // The outage starts as soon as the card's message is posted (not when the test reads the worker's
    // `ready`, which on a busy machine can come after the worker already completed the run).
    let failing: string | undefined;
    const off = world.emulator.onChange((change) => {
      if (change.kind !== 'created' || failing !== undefined) return;
      failing = world.emulator.faults.add({ route: 'im.message.patch', key: change.message.messageId, respond: { status: 503, body: { code: 99991400, msg: 'service unavailable' } }, label: 'outage' });
      off();
    });
    const first = world.start({ ...common, mode: 'finish', name: 'f', runs: 1, startAt: 0, runMs: 1500 });
    const { messages } = (await first.next('ready')) as unknown as { messages: Record<string, string> };
    const messageId = messages['f-0']!;
    expect(failing).toBeDefined();
    await first.next('completed');
    // The final was tried and refused at least twice: the process is in the final's retries.
    await expect.poll(() => world.emulator.calls({ route: 'im.message.patch', key: messageId }).filter((call) => call.faultId === failing).length, { timeout: 120_000 }).toBeGreaterThanOrEqual(2);
    await first.kill();
    world.emulator.faults.remove(failing!);
    expect(shown(messageId)).not.toContain('final answer f-0');

    const second = world.start({ ...common, mode: 'resume', name: 'r', runs: 0, startAt: 0, resumeRunIds: [] });
    await second.next('done');
    expect(world.emulator.messages()).toHaveLength(1);
    expect(shown(messageId)).toContain('final answer f-0');
    expect(shown(messageId)).toContain('212 passed');
    expect(shown(messageId)).not.toMatch(/interrupted|running/i);
  }, 600_000);
});
