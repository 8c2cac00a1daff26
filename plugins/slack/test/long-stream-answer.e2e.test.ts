import { WebClient } from '@slack/web-api';
import { DEFAULT_SLACK_WORKSPACE } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { blockText, harness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** `w0 w1 w2 …` up to at least `chars` characters: every word once, so a lost or repeated stretch shows. */
function numberedWords(chars: number): string {
  const words: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i += 1) {
    words.push(`w${i}`);
    length += `w${i} `.length;
  }
  return words.join(' ');
}

describe('Slack: an answer longer than one stream call holds (emulator over loopback, script time ×10)', { timeout: 120_000 }, () => {
  it('a 30 000-character answer in a thread stream: every word once and in order, finalDelivery ok, no continuation reported undeliverable', async () => {
    h = await harness({ scale: 10 });
    const client = new WebClient(DEFAULT_SLACK_WORKSPACE.botToken, { slackApiUrl: h.emulator.apiUrl, retryConfig: { retries: 0 } });
    const thread = (await client.chat.postMessage({ channel: DEFAULT_SLACK_WORKSPACE.channel, text: 'write a long report' })).ts!;
    const card = h.cards.open('slack', undefined, { replyTo: { messageId: thread, inThread: true }, requester: { id: 'U0ANA', name: 'Ana' } });
    const answer = numberedWords(30_000);
    // Three large deltas (each over Slack's 12 000 characters per markdown_text) and a small tail.
    const parts = [answer.slice(0, 13_000), answer.slice(13_000, 26_500), answer.slice(26_500)];
    await h.play(card, [
      { at: 0, type: 'run.started', title: 'Report' },
      ...parts.map((text, i) => ({ at: 1_000 + i * 2_000, type: 'answer.delta', text })),
      { at: 9_000, type: 'run.completed' },
    ]);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    expect(JSON.stringify(final)).not.toMatch(/undeliverable/);
    const streams = h.emulator.messages({ threadTs: thread });
    const shown = streams.map((m) => m.text).join('');
    expect(shown.length).toBe(answer.length);
    expect(shown).toBe(answer);
    expect(streams.every((m) => m.stream?.state === 'stopped')).toBe(true);
    expect(blockText(streams.at(-1)!.blocks, 'footer')).toMatch(/\S/);
    // Every call Slack refused would have been a markdown_text over 12 000 characters.
    expect(h.emulator.calls().filter((call) => call.outcome === 'rejected')).toEqual([]);
  });
});
