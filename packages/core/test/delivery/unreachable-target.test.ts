import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordingLogger } from '../../src/testing/index.js';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const WRONG_CHANNEL = { kind: 'target', detail: 'slack channel C0WRONG: channel_not_found' } as const;

describe('an unreachable target (failure kind target)', () => {
  it('fails the card fast: no retries, no plain-text render, the final tried once, one error naming the target', async () => {
    const logger = recordingLogger();
    const { channel, cards } = setup({}, {}, logger);
    channel.failNext({ op: 'send', failure: WRONG_CHANNEL, times: 100 });
    const card = cards.open('memory', 'C0WRONG');
    card.start({ title: 'run' });
    await settle(5000);
    for (let i = 0; i < 5; i++) {
      card.toolStarted(`t${i}`, 'shell', `{"command":"step ${i}"}`);
      await settle(3000);
    }
    // One try for the progress, no retry loop and no fallback render.
    expect(channel.calls).toHaveLength(1);
    card.complete('done');
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: false, status: 'completed', attempts: 1, error: expect.stringContaining('C0WRONG') });
    expect(channel.calls).toHaveLength(2);
    expect(channel.calls.every((call) => call.payload.format === 'rich')).toBe(true);
    const errors = logger.at('error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain('C0WRONG');
    expect(logger.at('warn')).toEqual([]);
  });

  it('a run whose first call is its final: one try, one error', async () => {
    const logger = recordingLogger();
    const { channel, cards } = setup({}, {}, logger);
    channel.failNext({ op: 'send', failure: WRONG_CHANNEL, times: 100 });
    const card = cards.open('memory', 'C0WRONG');
    card.complete('done at once');
    const final = await Promise.race([card.finalDelivery, settle(60_000).then(() => undefined)]);
    expect(final).toMatchObject({ ok: false, attempts: 1 });
    expect(channel.calls).toHaveLength(1);
    expect(logger.at('error')).toHaveLength(1);
  });

  it('leaves the other cards of the channel alone', async () => {
    const { channel, cards } = setup();
    channel.failNext({ op: 'send', failure: WRONG_CHANNEL, times: 1 });
    const wrong = cards.open('memory', 'C0WRONG');
    wrong.start({ title: 'wrong' });
    await settle(2000);
    const right = cards.open('memory', 'C0RIGHT');
    right.start({ title: 'right' });
    right.toolStarted('a', 'shell', '{"command":"make"}');
    await settle(5000);
    right.complete('done');
    expect(await right.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
  });
});
