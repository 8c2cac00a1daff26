import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const RUN = [
  { at: 0, type: 'run.started', title: 'Wrong channel' },
  { at: 100, type: 'tool.started', callId: 'c1', name: 'shell', args: '{"command":"make"}' },
  { at: 200, type: 'tool.finished', callId: 'c1', summary: 'ok' },
  { at: 300, type: 'answer.delta', text: 'Done.' },
  { at: 400, type: 'run.completed' },
];

describe('a channel the bot cannot post to', () => {
  for (const [answer, channel, emulator] of [
    ['channel_not_found', 'C0NOSUCH', {}],
    ['not_in_channel', 'C0OUTSIDE', { channelsWithoutBot: ['C0OUTSIDE'] }],
  ] as const) {
    it(`${answer}: the card is not retried, its final fails after one try with one error naming the channel`, async () => {
      h = await harness({ emulator });
      const card = h.cards.open('slack', channel);
      await h.play(card, RUN);
      const final = await card.finalDelivery;
      expect(final).toMatchObject({ ok: false, status: 'completed', attempts: 1 });
      expect(final.error).toContain(channel);
      expect(final.error).toContain(answer);
      // The run's first send and its final: no retry ladder, no plain-text fallback, no fresh message.
      const calls = h.emulator.calls().filter((call) => call.route === 'chat.postMessage');
      expect(calls.length).toBeLessThanOrEqual(2);
      expect(calls.every((call) => call.msg === answer)).toBe(true);
      const errors = h.logger.at('error');
      expect(errors).toHaveLength(1);
      expect(errors[0]!.message).toContain(channel);
    });
  }
});
