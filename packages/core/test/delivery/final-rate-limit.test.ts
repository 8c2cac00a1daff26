import { afterEach, describe, expect, it, vi } from 'vitest';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const LIMITED = { kind: 'rate-limited', retryAfterMs: 2000, scope: 'channel', detail: 'HTTP 429 code 99991400' } as const;

/**
 * A rate-limited answer says "later", nothing against the message: the final waits and retries on
 * the same card. Moving it to a fresh message would post a second card (a duplicate) and leave the
 * first one spinning on "running" forever.
 */
describe('a final answered with rate limits', () => {
  it('keeps retrying the same message: one card in the chat, and it ends completed', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    card.toolStarted('t', 'shell', { command: 'npm test' });
    await settle(1000);
    channel.failNext({ op: 'update', failure: LIMITED, times: 5 });
    card.toolFinished('t', 'passed');
    card.complete('All green.');
    await settle(60_000);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    expect(channel.messages.size).toBe(1);
    expect(channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'All green.' });
  });

  it('still gives up after a bounded number of tries when the limit never lifts, without a second card', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    card.start({ title: 'busy app' });
    await settle(1000);
    channel.failNext({ failure: LIMITED, times: 1000 });
    card.complete('never shown');
    await settle(120_000);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: false, status: 'completed' });
    expect(channel.messages.size).toBe(1);
    const calls = channel.calls.length;
    expect(calls).toBeLessThanOrEqual(10);
    await settle(120_000);
    expect(channel.calls.length).toBe(calls);
  });
});
