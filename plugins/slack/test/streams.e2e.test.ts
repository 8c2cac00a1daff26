import { WebClient } from '@slack/web-api';
import { DEFAULT_SLACK_WORKSPACE } from '@progresscard/emulator';
import { faultCase, loadFaultCases } from '@progresscard/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { blockText, harness, type Harness } from './harness.js';

// F25 and F27 are copied from the team's shared fault-case set (faults-4); each line names its field reports.
const cases = loadFaultCases(new URL('./fixtures/faults-4.jsonl', import.meta.url));

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * Script time runs 20 times faster: Slack's ~5 min stream life is 15 s of wall time, the core's
 * roll-over margin (30 s) 1.5 s, roomy enough for a loaded machine.
 */
const SCALE = 20;

async function question(harnessed: Harness, text = 'please do it'): Promise<string> {
  const client = new WebClient(DEFAULT_SLACK_WORKSPACE.botToken, { slackApiUrl: harnessed.emulator.apiUrl, retryConfig: { retries: 0 } });
  return (await client.chat.postMessage({ channel: DEFAULT_SLACK_WORKSPACE.channel, text })).ts!;
}

/** A 12-minute run: a plan, a tool call every 3 min, one numbered sentence every 20 s. */
function longRun(): { events: Record<string, unknown>[]; answer: string } {
  const events: Record<string, unknown>[] = [
    { at: 0, type: 'run.started', title: 'Migrate the billing tables' },
    { at: 10, type: 'plan.updated', items: [{ text: 'Read the schema', status: 'in_progress' }, { text: 'Write the migration', status: 'pending' }] },
  ];
  let answer = '';
  for (let i = 0; i < 36; i += 1) {
    const at = 1_000 + i * 20_000;
    if (i % 9 === 0) events.push({ at, type: 'tool.started', callId: `t${i}`, name: 'shell', args: '{"command":"psql -c \\\\d"}' });
    if (i % 9 === 4) events.push({ at, type: 'tool.finished', callId: `t${i - 4}`, summary: 'ok' });
    const sentence = `Step ${i} done. `;
    answer += sentence;
    events.push({ at: at + 1, type: 'answer.delta', text: sentence });
  }
  events.push({ at: 722_000, type: 'plan.updated', items: [{ text: 'Read the schema', status: 'completed' }, { text: 'Write the migration', status: 'completed' }] });
  events.push({ at: 722_100, type: 'run.completed' });
  return { events, answer };
}

describe('Slack native streaming in a thread (emulator over loopback, script time ×20)', { timeout: 120_000 }, () => {
  it('a 12-minute run streams across roll-overs: the text complete and in order, the plan as plan chunks, the footer at stop', async () => {
    h = await harness({ scale: SCALE });
    const thread = await question(h);
    const card = h.cards.open('slack', undefined, { replyTo: { messageId: thread, inThread: true }, requester: { id: 'U0ANA', name: 'Ana' } });
    const { events, answer } = longRun();
    await h.play(card, events);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const streams = h.emulator.messages({ threadTs: thread });
    expect(streams.length).toBeGreaterThanOrEqual(3);
    expect(streams.every((m) => m.stream?.recipientUserId === 'U0ANA' && m.stream.taskDisplayMode === 'plan')).toBe(true);
    // Every character once, in order, across the streams (a call refused as too late goes into the next one).
    expect(streams.map((m) => m.text).join('')).toBe(answer);
    expect(streams.at(-1)!.stream!.state).toBe('stopped');
    // The plan went as plan chunks (and its items as tasks), in every stream that was open when it changed.
    expect(streams[0]!.stream!.planTitle).toMatch(/Plan/);
    expect(streams.at(-1)!.stream!.tasks.filter((task) => task.id.startsWith('plan_')).map((task) => task.status)).toEqual(['complete', 'complete']);
    expect(streams.flatMap((m) => m.stream!.tasks).some((task) => task.id === 't0' && task.status === 'complete')).toBe(true);
    // The footer (and nothing else of the card) below the last stream; the others say they continue.
    expect(blockText(streams.at(-1)!.blocks, 'footer')).toMatch(/\S/);
    // Streams rolled over before their end of life say they continue (on a loaded machine a call may
    // still come too late: then that stream simply ended, and its text went on in the next).
    const rolledOver = streams.slice(0, -1).filter((m) => m.stream!.state === 'stopped');
    expect(rolledOver.length).toBeGreaterThanOrEqual(1);
    for (const m of rolledOver) expect(blockText(m.blocks, 'continued')).toBe('_(continued below)_');
    // Nothing was posted in the channel timeline besides the question.
    expect(h.emulator.messages().filter((m) => !m.threadTs).map((m) => m.ts)).toEqual([thread]);
    expect(h.emulator.calls({ route: 'chat.update' })).toEqual([]);
  });

  it('F25 on Slack: 8 silent minutes outlive the stream; the answer and the final still show (in a fresh stream), finalDelivery is true to it', async () => {
    const c = faultCase(cases, 'F25');
    h = await harness({ scale: SCALE });
    const thread = await question(h);
    const card = h.cards.open('slack', undefined, { replyTo: { messageId: thread, inThread: true }, requester: { id: 'U0ANA', name: 'Ana' } });
    await h.play(card, c.events as unknown as Record<string, unknown>[]);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const streams = h.emulator.messages({ threadTs: thread });
    expect(streams.map((m) => m.text).join('')).toBe('The index is rebuilt: 12k documents, 3 shards.');
    expect(streams.at(-1)!.stream!.state).toBe('stopped');
    expect(blockText(streams.at(-1)!.blocks, 'footer')).toMatch(/\S/);
  });

  it('F27 on Slack: the user presses Stop on the stream; the run ends cancelled, onStop hears it, nothing is re-posted', async () => {
    const c = faultCase(cases, 'F27');
    h = await harness({ scale: 5 });
    const thread = await question(h);
    const card = h.cards.open('slack', undefined, { replyTo: { messageId: thread, inThread: true }, requester: { id: 'U0ANA', name: 'Ana' } });
    const heard: string[] = [];
    card.onStop((by) => void heard.push(by.id));
    const events = c.events as unknown as Record<string, unknown>[];
    await h.play(card, events.filter((e) => Number(e.at) < 5_000));
    await h.until(5_000);
    const [stream] = h.emulator.messages({ threadTs: thread });
    // the user presses Stop once the first sentence shows (real time: wait for it, not for a clock)
    await expect.poll(() => h!.emulator.message(stream!.ts)?.text, { timeout: 15_000 }).toBe('Release 2.4 adds dark mode. ');
    h.emulator.stopStreamByUser(stream!.ts);
    const stoppedAt = Date.now();
    await h.play(card, events.filter((e) => Number(e.at) >= 5_000));
    expect(await card.finalDelivery).toMatchObject({ status: 'cancelled' });
    expect(heard).toEqual(['U0ANA']);
    expect(h.emulator.messages({ threadTs: thread }).map((m) => m.ts)).toEqual([stream!.ts]);
    expect(h.emulator.calls({ key: stream!.ts }).filter((call) => (call.receivedAt ?? call.at) >= stoppedAt).length).toBeLessThanOrEqual(1);
    expect(h.emulator.message(stream!.ts)!.text).toBe('Release 2.4 adds dark mode. ');
  });

  it('a thread status says the app is working until the stream posts; outside a thread the card keeps chat.postMessage + chat.update', async () => {
    h = await harness({ scale: SCALE });
    const card = h.cards.open('slack', undefined, { locale: 'en' });
    await h.play(card, [{ at: 0, type: 'run.started', title: 'x' }, { at: 100, type: 'answer.delta', text: 'hi' }, { at: 5_000, type: 'run.completed' }]);
    expect(await card.finalDelivery).toMatchObject({ ok: true });
    expect(h.emulator.calls({ route: 'chat.startStream' })).toEqual([]);
    expect(h.emulator.calls({ route: 'chat.postMessage' }).length).toBe(1);
    expect(h.emulator.calls({ route: 'assistant.threads.setStatus' })).toEqual([]);
  });
});
