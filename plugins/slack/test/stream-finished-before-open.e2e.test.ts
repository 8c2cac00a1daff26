import { WebClient } from '@slack/web-api';
import { DEFAULT_SLACK_WORKSPACE } from '@progresscard/emulator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { blockText, harness, statusOf, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Script time runs 20 times faster (Slack's per-minute windows and the stream's life shrink with it). */
const SCALE = 20;
const MODEL = 'claude-sonnet-4';

async function question(harnessed: Harness): Promise<string> {
  const client = new WebClient(DEFAULT_SLACK_WORKSPACE.botToken, { slackApiUrl: harnessed.emulator.apiUrl, retryConfig: { retries: 0 } });
  return (await client.chat.postMessage({ channel: DEFAULT_SLACK_WORKSPACE.channel, text: 'is the build green?' })).ts!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A thread run over before its stream could open goes out as one message: a stream costs a
 * chat.startStream and a chat.stopStream, both Tier 2 (about 20 a minute per workspace:
 * https://docs.slack.dev/reference/methods/chat.startStream), where one chat.postMessage holds the
 * whole finished card.
 */
describe('Slack: a thread run that ends before its stream opens (emulator over loopback, script time ×20)', { timeout: 60_000 }, () => {
  it('the start is turned away (429) and the run ends meanwhile: one thread reply with the whole answer and the footer, once; no stream opened or left open', async () => {
    h = await harness({ scale: SCALE });
    const thread = await question(h);
    // Slack answers the stream's start with its rate limit (the workspace's Tier 2 window is taken); the card's next call waits the second it names.
    h.emulator.faults.add({ route: 'chat.startStream', times: 1, respond: { status: 429, body: { ok: false, error: 'ratelimited' }, headers: { 'retry-after': '1' } } });
    const card = h.cards.open('slack', undefined, { replyTo: { messageId: thread, inThread: true }, requester: { id: 'U0ANA', name: 'Ana' } });
    await h.play(card, [
      { at: 0, type: 'run.started', title: 'Check the build', model: MODEL },
      { at: 200, type: 'tool.started', callId: 't1', name: 'shell', args: '{"command":"npm test"}' },
    ]);
    // The run ends only once Slack turned the start away (on a loaded machine the script could otherwise end first).
    await vi.waitFor(() => expect(h!.emulator.calls({ route: 'chat.startStream' }), 'the card tried chat.startStream').not.toEqual([]), { timeout: 30_000, interval: 20 });
    await h.play(card, [
      { at: 0, type: 'tool.finished', callId: 't1', summary: '112 passed' },
      { at: 1_100, type: 'answer.delta', text: 'The build is green: ' },
      { at: 1_200, type: 'answer.delta', text: 'all 112 tests pass.' },
      { at: 1_300, type: 'run.completed' },
    ]);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    await h.cards.idle();
    await sleep(300);

    const replies = h.emulator.messages({ threadTs: thread });
    expect(replies).toHaveLength(1);
    const [reply] = replies;
    expect(reply!.stream).toBeUndefined();
    expect(blockText(reply!.blocks, 'answer')).toBe('The build is green: all 112 tests pass.');
    expect(statusOf(reply!.blocks)).toBe('Completed');
    expect(blockText(reply!.blocks, 'footer')).toContain(MODEL);
    // Posted once, never edited; the only stream call is the start Slack turned away.
    expect(h.emulator.calls({ route: 'chat.postMessage' }).map((call) => call.outcome)).toEqual(['accepted', 'accepted']); // the question, the reply
    expect(h.emulator.calls({ route: 'chat.update' })).toEqual([]);
    expect(h.emulator.calls({ route: 'chat.startStream' }).map((call) => call.outcome)).toEqual(['rejected']);
    expect(h.emulator.calls({ route: 'chat.appendStream' })).toEqual([]);
    expect(h.emulator.calls({ route: 'chat.stopStream' })).toEqual([]);
    expect(h.emulator.messages().filter((m) => m.stream)).toEqual([]);
  });

  it('a 429 on chat.startStream holds only that method: the run ending meanwhile is posted at once, long before the 20 minutes Slack named for the stream start', { timeout: 30_000 }, async () => {
    h = await harness({ scale: SCALE });
    const thread = await question(h);
    // Retry-After 1200 s of script time (a minute of wall time at ×20): a post held by it would outlast this test's timeout.
    h.emulator.faults.add({ route: 'chat.startStream', times: 1, respond: { status: 429, body: { ok: false, error: 'ratelimited' }, headers: { 'retry-after': '1200' } } });
    const card = h.cards.open('slack', undefined, { replyTo: { messageId: thread, inThread: true }, requester: { id: 'U0ANA', name: 'Ana' } });
    await h.play(card, [
      { at: 0, type: 'run.started', title: 'Check the build', model: MODEL },
      { at: 100, type: 'answer.delta', text: 'The build is green.' },
    ]);
    await vi.waitFor(() => expect(h!.emulator.calls({ route: 'chat.startStream' }), 'the card tried chat.startStream').not.toEqual([]), { timeout: 20_000, interval: 20 });
    card.push({ type: 'run.completed' });
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const replies = h.emulator.messages({ threadTs: thread });
    expect(replies).toHaveLength(1);
    expect(replies[0]!.stream).toBeUndefined();
    expect(blockText(replies[0]!.blocks, 'answer')).toBe('The build is green.');
    expect(h.emulator.calls({ route: 'chat.startStream' }).map((call) => call.outcome)).toEqual(['rejected']);
    expect(h.logger.lines.filter((line) => line.includes('ratelimited on chat.startStream'))).not.toEqual([]);
  });

  it('a run whose stream already opened still ends through it: chat.stopStream carries the footer, nothing is posted besides the stream', async () => {
    h = await harness({ scale: SCALE });
    const thread = await question(h);
    const card = h.cards.open('slack', undefined, { replyTo: { messageId: thread, inThread: true }, requester: { id: 'U0ANA', name: 'Ana' } });
    await h.play(card, [
      { at: 0, type: 'run.started', title: 'Check the build', model: MODEL },
      { at: 100, type: 'answer.delta', text: 'The build is green: ' },
    ]);
    // Real time: wait for the stream to be open, not for a clock.
    await expect.poll(() => h!.emulator.messages({ threadTs: thread }).filter((m) => m.stream?.state === 'streaming').length, { timeout: 15_000 }).toBe(1);
    card.push({ type: 'answer.delta', text: 'all 112 tests pass.' });
    card.push({ type: 'run.completed' });
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    await h.cards.idle();

    const replies = h.emulator.messages({ threadTs: thread });
    expect(replies).toHaveLength(1);
    const [stream] = replies;
    expect(stream!.stream!.state).toBe('stopped');
    expect(stream!.text).toBe('The build is green: all 112 tests pass.');
    expect(blockText(stream!.blocks, 'footer')).toContain(MODEL);
    expect(h.emulator.calls({ route: 'chat.startStream' }).map((call) => call.outcome)).toEqual(['accepted']);
    expect(h.emulator.calls({ route: 'chat.stopStream' }).map((call) => call.outcome)).toEqual(['accepted']);
    // The only chat.postMessage is the question.
    expect(h.emulator.calls({ route: 'chat.postMessage' })).toHaveLength(1);
  });
});
