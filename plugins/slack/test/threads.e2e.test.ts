import { WebClient } from '@slack/web-api';
import { DEFAULT_SLACK_WORKSPACE } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptedCards, blockText, harness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const RUN = [
  { at: 0, type: 'run.started', title: 'Fix the build' },
  { at: 10, type: 'tool.started', callId: 'c1', name: 'shell', args: '{"command":"npm test"}' },
  { at: 3_500, type: 'tool.finished', callId: 'c1', summary: '12 passed' },
  { at: 3_600, type: 'answer.delta', text: 'Fixed: the import path was wrong.' },
  { at: 3_700, type: 'run.completed' },
];

describe('Slack: a card in the thread of the triggering message (over loopback)', () => {
  it('with native streaming off: posts with thread_ts, updates the card in the thread, and nothing lands in the channel timeline', async () => {
    h = await harness({ scale: 10, plugin: { streaming: { mode: 'off' } } });
    const client = new WebClient(DEFAULT_SLACK_WORKSPACE.botToken, { slackApiUrl: h.emulator.apiUrl, retryConfig: { retries: 0 } });
    const question = await client.chat.postMessage({ channel: DEFAULT_SLACK_WORKSPACE.channel, text: 'fix the build please' });
    const card = h.cards.open('slack', undefined, { replyTo: { messageId: question.ts!, inThread: true } });
    await h.play(card, RUN);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    const thread = h.emulator.messages({ threadTs: question.ts! });
    expect(thread.map((m) => m.ts)).toEqual([final.message!.id]);
    expect(acceptedCards(thread[0]!).length).toBeGreaterThan(1);
    expect(blockText(thread[0]!.blocks, 'answer_')).toContain('Fixed: the import path was wrong.');
    expect(h.emulator.messages().filter((m) => !m.threadTs).map((m) => m.ts)).toEqual([question.ts]);
  });

  it.each(['9999999999.000001', 'not-a-ts'])('a triggering message that is gone (thread_ts %s): Slack answers thread_not_found and the card goes into the channel', async (ts) => {
    h = await harness({ scale: 10 });
    const card = h.cards.open('slack', undefined, { replyTo: { messageId: ts, inThread: true } });
    await h.play(card, RUN);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    const inChannel = h.emulator.messages().filter((m) => !m.threadTs);
    expect(inChannel.map((m) => m.ts)).toEqual([final.message!.id]);
    expect(blockText(inChannel[0]!.blocks, 'answer_')).toContain('Fixed: the import path was wrong.');
    const refused = await new WebClient(DEFAULT_SLACK_WORKSPACE.botToken, { slackApiUrl: h.emulator.apiUrl, retryConfig: { retries: 0 } })
      .chat.postMessage({ channel: DEFAULT_SLACK_WORKSPACE.channel, text: 'reply', thread_ts: ts })
      .catch((error: { data?: { error?: string } }) => error.data?.error);
    expect(refused).toBe('thread_not_found');
  });
});
