import { afterEach, describe, expect, it, vi } from 'vitest';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

/**
 * Text held back by pacing when a stream reaches its lifetime (issue 31 leftover): the stop that
 * rolls the stream over carries no new text, so the text held at that moment must open the next
 * stream (its start), in order and once, not be lost with the old stream. Deltas every 2 s, a
 * per-card interval of 15 s and a 60 s lifetime: every roll-over happens with text held. Found on
 * the way: the roll-over was due only at the first paced call after the margin (60 s, the end of
 * life), so no stream was ever stopped ("continued below" missing, each left streaming until the
 * platform ended it); it now rolls over at the last call that starts before the margin.
 */
describe('native streams: text held at a roll-over', () => {
  it('opens the next stream: every character once, in order, across four roll-overs', async () => {
    const { channel, cards } = setup({ streaming: { lifetime: { maxAgeMs: 60_000 } }, overrides: { perCardIntervalMs: 15_000 } });
    const card = cards.open('memory', undefined, { locale: 'en' });
    card.start({ title: 'paced stream' });
    let answer = '';
    for (let i = 0; i < 120; i += 1) {
      const sentence = `S${i}. `;
      answer += sentence;
      card.answer(sentence);
      await settle(2000);
    }
    const streams = () => [...channel.messages.values()].filter((message) => message.stream).map((message) => message.stream!);
    const rolledOver = streams().slice(0, -1);
    expect(rolledOver.length).toBeGreaterThanOrEqual(3);
    // Each was stopped politely within its life, with the roll-over notice.
    expect(rolledOver.every((stream) => stream.state === 'stopped' && stream.continued === true)).toBe(true);
    for (const call of channel.calls) {
      const stream = channel.messages.get(call.messageId)!.stream!;
      expect(call.at - stream.startedAt).toBeLessThanOrEqual(60_000);
    }
    // Each stopped stream's text ends with a whole sentence and the next stream starts with the sentence after it.
    for (let i = 1; i < streams().length; i += 1) {
      const last = /S(\d+)\. $/.exec(streams()[i - 1]!.text)?.[1];
      expect(streams()[i]!.text.startsWith(`S${Number(last) + 1}. `)).toBe(true);
    }
    card.complete();
    await settle(60_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(streams().map((stream) => stream.text).join('')).toBe(answer);
    expect(channel.calls.filter((call) => call.failure)).toEqual([]);
  });
});
