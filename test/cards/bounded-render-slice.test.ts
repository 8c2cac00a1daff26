/**
 * Bounded render cost (issue 30 item 4): a renderer works on the part of the answer its card and
 * continuation parts can show (plus `ANSWER_BOUND_MARGIN`), never on the whole answer. Shown by
 * rendering a 10 MB answer and only its first (bound + margin) characters with the same
 * `answerSourceChars`: the card, its continuation parts and its plain fallback are the same, and the
 * notices count the whole answer. Render time itself is measured by `npm run bench:render`.
 */
import { describe, expect, it } from 'vitest';
import { CardState } from '@progresscard/core';
import { ANSWER_BOUND_MARGIN, boundAnswer, answerCharsNotHeld, wellFormed, type CardRenderer, type CardView } from '@progresscard/core/plugin';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { feishu } from '@progresscard/plugin-feishu';
import { slack } from '@progresscard/plugin-slack';
import { discord } from '@progresscard/plugin-discord';
import { telegram } from '@progresscard/plugin-telegram';
import { DEFAULT_DISCORD_APP, DEFAULT_TELEGRAM_BOT } from '@progresscard/emulator';

const TEN_MB = 10_000_000;
const AT = 1_700_000_000_000;

/** Each channel's renderer and the answer characters its card and continuation parts can show. */
const CHANNELS: Record<string, { make: () => CardRenderer<unknown>; bound: number }> = {
  // 28 KB of card content, main card and 4 follow-up cards.
  feishu: { make: () => feishu({ appId: 'cli_slice', appSecret: 'slice', receiveId: 'oc_slice', timeZone: 'UTC' }).renderer as CardRenderer<unknown>, bound: 28 * 1024 * 5 },
  // 2500 characters of card markdown, the card and 20 follow-up messages.
  dingtalk: {
    make: () =>
      dingtalk({ appKey: 'dingslice', appSecret: 'slice', cardTemplateId: 'slice.schema', target: { type: 'group', openConversationId: 'cidSlice==' }, timeZone: 'UTC' })
        .renderer as CardRenderer<unknown>,
    bound: 2500 * 21,
  },
  // 3000-character sections: 4 in the main message, 10 in each of 5 thread replies.
  slack: { make: () => slack({ botToken: 'xoxb-slice', channel: 'C0SLICE' }).renderer as CardRenderer<unknown>, bound: 3000 * 54 },
  // 2000 characters in the embed, 12 follow-ups of 3900.
  discord: { make: () => discord({ botToken: DEFAULT_DISCORD_APP.botToken, channelId: DEFAULT_DISCORD_APP.channel }).renderer as CardRenderer<unknown>, bound: 2000 + 12 * 3900 },
  // 2500 characters in the card, 12 follow-ups of 3800.
  telegram: { make: () => telegram({ botToken: DEFAULT_TELEGRAM_BOT.botToken, chatId: DEFAULT_TELEGRAM_BOT.privateChat }).renderer as CardRenderer<unknown>, bound: 2500 + 12 * 3800 },
};

function finalCard(answer: string): CardView {
  const state = new CardState({ startedAt: AT, locale: 'en' });
  state.apply({ type: 'run.started', title: 'Huge answer' }, AT);
  state.apply({ type: 'run.completed', answer }, AT);
  return state.view(AT);
}

const drawn = (renderer: CardRenderer<unknown>, view: CardView) => ({
  card: renderer.render(view),
  continuations: renderer.renderContinuations?.(view) ?? [],
  fallback: renderer.renderFallback?.(view),
});

describe('a renderer draws only the part of the answer it can show', () => {
  const prose = 'answer '.repeat(TEN_MB / 7 + 1).slice(0, TEN_MB);
  const whole = finalCard(prose);

  for (const [channel, { make, bound }] of Object.entries(CHANNELS)) {
    it(`${channel}: a 10 MB answer and only its first (bound + margin) characters draw the same card, continuations and fallback`, () => {
      const slice: CardView = { ...whole, answer: whole.answer.slice(0, bound + ANSWER_BOUND_MARGIN), answerSourceChars: TEN_MB };
      const fromWhole = drawn(make(), whole);
      expect(drawn(make(), slice)).toEqual(fromWhole);
      // The notices count the whole answer the agent wrote (9.8 million or more left out), not the part drawn.
      expect(JSON.stringify(fromWhole)).toMatch(/(9,?[89]\d\d|10,?000),?\d\d\d/);
    }, 60_000);
  }
});

describe('boundAnswer', () => {
  const view = finalCard('short');

  it('leaves an answer within the bound as it is', () => {
    expect(boundAnswer(view, 10)).toBe(view);
    expect(answerCharsNotHeld(view)).toBe(0);
  });

  it('cuts after a line break, closes an open code fence and keeps the whole length', () => {
    const answer = `intro\n\`\`\`ts\n${'x = 1\n'.repeat(1000)}`;
    const bounded = boundAnswer({ ...view, answer }, 100);
    expect(bounded.answer.length).toBeLessThanOrEqual(100 + ANSWER_BOUND_MARGIN + 4);
    expect(bounded.answer).toMatch(/x = 1\n```$/);
    expect(bounded.answerSourceChars).toBe(answer.length);
    expect(answerCharsNotHeld(bounded)).toBe(answer.length - bounded.answer.length);
  });

  it('never cuts a surrogate pair in a text without line breaks', () => {
    const answer = 'a😀'.repeat(5000);
    for (const max of [100, 101, 102]) {
      const bounded = boundAnswer({ ...view, answer }, max);
      expect(wellFormed(bounded.answer)).toBe(bounded.answer);
      expect(answer.startsWith(bounded.answer)).toBe(true);
    }
  });

  it('keeps the length the core already counted for an answer it cut', () => {
    const bounded = boundAnswer({ ...view, answer: 'y'.repeat(10_000), answerSourceChars: TEN_MB }, 10);
    expect(bounded.answerSourceChars).toBe(TEN_MB);
  });
});
