import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordingLogger } from '../../src/testing/index.js';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const TEN = '0123456789';

describe('continuation parts', () => {
  it('an answer longer than one message goes out as the card plus replies to it, each once, and is counted', async () => {
    const { channel, cards } = setup({ answerChunkChars: 10 });
    const card = cards.open('memory');
    card.complete(`${TEN}abcdefghij😀xyz`);
    // Calls are paced (5/s here: one every 210 ms), not burst: give the three sends their slots.
    await settle(1000);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed', continuations: { delivered: 2, total: 2 } });
    const main = final.message!.id;
    expect(channel.messages.get(main)!.history.at(-1)!.answer).toBe(TEN);
    const parts = [...channel.messages.values()].filter((message) => message.replyTo === main);
    expect(parts.map((part) => part.history.map((payload) => [payload.part, payload.answer]))).toEqual([
      [[2, 'abcdefghij']],
      [[3, '😀xyz']],
    ]);
    expect(cards.stats('memory')).toMatchObject({ sent: 3, updated: 0, failed: 0 });
  });

  it('sends a part again only when its content changed', async () => {
    const { channel, cards } = setup({ answerChunkChars: 10 });
    const card = cards.open('memory');
    card.answer(`${TEN}tail`);
    await settle(5000);
    const part = () => [...channel.messages.values()].find((message) => message.replyTo !== undefined);
    expect(part()?.history.map((payload) => payload.answer)).toEqual(['tail']);
    card.toolStarted('c1', 'shell', '{"command":"ls"}');
    card.toolFinished('c1', 'ok');
    await settle(5000);
    // The main card moved on; the part's content did not, so it was not sent again.
    expect(channel.messages.get('m1')!.history.at(-1)!.tools).toHaveLength(1);
    expect(part()!.history).toHaveLength(1);
    card.complete();
    await settle(1000); // the final's two updates, paced
    const final = await card.finalDelivery;
    expect(final.continuations).toEqual({ delivered: 1, total: 1 });
    expect(part()!.history.map((payload) => payload.status)).toEqual(['running', 'completed']);
  });

  it('retries a failing part through the failure policy, then reports it missing with one error naming it; the final is not ok', async () => {
    const logger = recordingLogger();
    const { channel, cards } = setup({ answerChunkChars: 10 }, {}, logger);
    const card = cards.open('memory');
    card.start({ title: 'long' });
    await settle(1000);
    channel.failNext({ op: 'send', failure: { kind: 'transient', detail: 'platform unreachable' }, times: 1000 });
    card.complete(`${TEN}rest`);
    await settle(30_000);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: false, status: 'completed', error: 'continuation part 2 of 2 undeliverable', continuations: { delivered: 0, total: 1 } });
    // Parts of 10 characters leave no room for the line that says what is missing: the card's error says it.
    expect(channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'completed', answer: TEN, error: expect.stringMatching(/4 个字符/) });
    const partTries = channel.calls.filter((call) => call.op === 'send' && call.replyTo === 'm1');
    expect(partTries).toHaveLength(4);
    expect(partTries.every((call) => call.failure === 'transient')).toBe(true);
    expect(logger.at('error').map((entry) => entry.message)).toEqual(['final continuation parts undeliverable: every retry failed']);
  });

  it('waits out a rate limit on a part and delivers it on the same budget', async () => {
    const { channel, cards } = setup({ answerChunkChars: 10 });
    const card = cards.open('memory');
    card.start({ title: 'long' });
    await settle(1000);
    channel.failNext({ op: 'send', failure: { kind: 'rate-limited', retryAfterMs: 3000, scope: 'channel', detail: '429' } });
    card.complete(`${TEN}rest`);
    await settle(30_000);
    const final = await card.finalDelivery;
    expect(final.continuations).toEqual({ delivered: 1, total: 1 });
    const tries = channel.calls.filter((call) => call.replyTo === 'm1');
    expect(tries.map((call) => call.failure)).toEqual(['rate-limited', undefined]);
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(3000);
    expect(cards.stats('memory').rateLimited).toBe(1);
  });

  it('reports no continuations when everything fits', async () => {
    const { cards } = setup({ answerChunkChars: 10 });
    const card = cards.open('memory');
    card.complete('short');
    expect((await card.finalDelivery).continuations).toEqual({ delivered: 0, total: 0 });
  });
});
