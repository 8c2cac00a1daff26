import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordingLogger } from '../../src/testing/index.js';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const QUOTA = { kind: 'quota', detail: '403 Forbidden.AccessDenied.ApiCountLimitForOrg' } as const;

describe('a spent call quota (failure kind quota)', () => {
  it('stops the progressive updates of every card of the channel, with no plain-text render and one error log', async () => {
    const logger = recordingLogger();
    const { channel, cards } = setup({}, {}, logger);
    const first = cards.open('memory');
    const second = cards.open('memory');
    first.start({ title: 'one' });
    second.start({ title: 'two' });
    await settle(1000);
    channel.failNext({ op: 'update', failure: QUOTA, times: 100 });
    first.toolStarted('a', 'shell', '{"command":"make"}');
    second.toolStarted('b', 'shell', '{"command":"make"}');
    await settle(5000);
    const failedCalls = channel.calls.filter((call) => call.failure === 'quota');
    // Each card may hit the wall once; after that neither card spends another call on progress.
    expect(failedCalls.length).toBeLessThanOrEqual(2);
    for (let i = 0; i < 10; i++) {
      first.toolFinished('a', `ok ${i}`);
      second.answer(`step ${i}`);
      await settle(2000);
    }
    expect(channel.calls.filter((call) => call.failure === 'quota')).toHaveLength(failedCalls.length);
    expect(channel.calls.every((call) => call.payload.format === 'rich')).toBe(true);
    expect(logger.at('error').map((entry) => entry.message).filter((line) => line.includes('quota'))).toHaveLength(1);
  });

  it('tries each final once and reports it undeliverable when the quota is still spent', async () => {
    const logger = recordingLogger();
    const { channel, cards } = setup({}, {}, logger);
    const card = cards.open('memory');
    card.start({ title: 'run' });
    await settle(1000);
    channel.failNext({ op: 'update', failure: QUOTA, times: 100 });
    card.toolStarted('a', 'shell', '{"command":"make"}');
    await settle(2000);
    const before = channel.calls.length;
    card.complete('done');
    const final = await Promise.race([card.finalDelivery, settle(60_000).then(() => undefined)]);
    expect(final).toMatchObject({ ok: false, status: 'completed' });
    expect(channel.calls.length - before).toBe(1);
  });

  it('lets the final through when the quota was renewed in the meantime', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    card.start({ title: 'run' });
    await settle(1000);
    channel.failNext({ op: 'update', failure: QUOTA, times: 1 });
    card.toolStarted('a', 'shell', '{"command":"make"}');
    await settle(2000);
    card.complete('done');
    await settle(10_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'done' });
  });
});
