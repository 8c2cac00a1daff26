import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type MemoryStreamOptions } from '../../src/index.js';

afterEach(() => vi.useRealTimers());

function start(streaming: MemoryStreamOptions) {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 5, 14, 0, 0) });
  const channel = memoryChannel({ streaming });
  const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
  const card = cards.open('memory', undefined, { locale: 'en' });
  const streams = () => [...channel.messages.values()].filter((message) => message.stream).map((message) => message.stream!);
  return { channel, cards, card, streams };
}

/** A 12-minute run: one numbered sentence every 20 s, a plan and a tool call now and then. */
async function longRun(card: ReturnType<typeof start>['card']): Promise<string> {
  let answer = '';
  card.push({ type: 'run.started', title: 'Long run' });
  card.push({ type: 'plan.updated', items: [{ text: 'Read', status: 'in_progress' }, { text: 'Write', status: 'pending' }] });
  for (let i = 0; i < 36; i += 1) {
    if (i % 9 === 0) card.push({ type: 'tool.started', callId: `t${i}`, name: 'shell', args: '{"command":"ls"}' });
    if (i % 9 === 4) card.push({ type: 'tool.finished', callId: `t${i - 4}`, summary: 'ok' });
    const sentence = `Sentence ${i} 🙂. `;
    answer += sentence;
    card.push({ type: 'answer.delta', text: sentence });
    await vi.advanceTimersByTimeAsync(20_000);
  }
  card.push({ type: 'plan.updated', items: [{ text: 'Read', status: 'completed' }, { text: 'Write', status: 'completed' }] });
  card.push({ type: 'run.completed' });
  await vi.advanceTimersByTimeAsync(10_000);
  return answer;
}

describe('native streams: lifetime and roll-over', () => {
  it('a 12-minute run rolls over before each 5-minute end of life: every character once, in order, no refused call, footer on the last stream', async () => {
    const { channel, card, streams } = start({ lifetime: { maxAgeMs: 300_000 } });
    const answer = await longRun(card);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    const all = streams();
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(all.map((stream) => stream.text).join('')).toBe(answer);
    expect(channel.calls.filter((call) => call.failure)).toEqual([]);
    expect(all.slice(0, -1).every((stream) => stream.continued && stream.footer === undefined)).toBe(true);
    expect(all.at(-1)).toMatchObject({ state: 'stopped', status: 'completed' });
    expect(all.at(-1)!.footer).toMatch(/\S/);
    expect(all.at(-1)!.plan).toEqual(['Read (completed)', 'Write (completed)']);
    // Every call of a stream was made within its life.
    for (const call of channel.calls) {
      const stream = channel.messages.get(call.messageId)!.stream!;
      expect(call.at - stream.startedAt).toBeLessThanOrEqual(300_000);
    }
  });

  it('a stream the platform ends early continues in a fresh one (refused calls are retried there, nothing lost or repeated)', async () => {
    const { channel, card, streams } = start({ lifetime: { maxAgeMs: 240_000 } });
    // The platform's real lifetime is shorter than declared: its calls are refused after 200 s.
    const realLife = setInterval(() => {
      for (const stream of streams()) if (stream.state === 'streaming' && Date.now() - stream.startedAt > 200_000) stream.state = 'expired';
    }, 1_000);
    const answer = await longRun(card);
    clearInterval(realLife);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(channel.calls.some((call) => call.failure === 'stream-ended')).toBe(true);
    expect(streams().map((stream) => stream.text).join('')).toBe(answer);
  });

  it('a run over before its first stream opened is posted as one message (no stream start and stop for a finished card)', async () => {
    const { channel, card, streams } = start({ lifetime: { maxAgeMs: 300_000 } });
    card.push({ type: 'run.started', title: 'Quick', model: 'claude-sonnet-4' });
    card.push({ type: 'tool.started', callId: 't1', name: 'shell', args: '{"command":"ls"}' });
    card.push({ type: 'tool.finished', callId: 't1', summary: 'ok' });
    card.push({ type: 'answer.delta', text: 'All done.' });
    card.push({ type: 'run.completed' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(channel.calls.map((call) => call.op)).toEqual(['send']);
    expect(streams()).toEqual([]);
    // One message, sent once, with the whole answer and the footer (it names the run's model).
    const messages = [...channel.messages.values()];
    expect(messages).toHaveLength(1);
    expect(messages[0]!.history).toHaveLength(1);
    expect(messages[0]!.history[0]).toMatchObject({ status: 'completed', answer: 'All done.' });
    expect(messages[0]!.history[0]!.footer).toContain('claude-sonnet-4');
  });

  it('text over the per-call limit goes in several calls without splitting a character; `full` mode sends the stream\'s whole text', async () => {
    const { channel, card, streams } = start({ lifetime: { maxAgeMs: 300_000 }, text: 'full', maxTextCharsPerCall: 7 });
    card.push({ type: 'run.started', title: 'Short' });
    card.push({ type: 'answer.delta', text: 'abcdef🙂ghij' });
    // The run goes on until its stream is open (a run over before it would be posted, not streamed).
    await vi.advanceTimersByTimeAsync(5_000);
    card.push({ type: 'run.completed' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true });
    expect(streams().map((stream) => stream.text).join('')).toBe('abcdef🙂ghij');
    expect(streams().every((stream) => stream.text.length <= 7)).toBe(true);
    expect(channel.calls.filter((call) => call.failure)).toEqual([]);
  });

  it('a question during a stream (a stream shows no buttons): the stream closes with its text and the card goes on in edit mode, in a fresh message', async () => {
    const { channel, card, streams } = start({ lifetime: { maxAgeMs: 300_000 } });
    card.push({ type: 'run.started', title: 'Deploy' });
    card.answer('Ready to deploy.');
    await vi.advanceTimersByTimeAsync(5_000);
    const approval = card.requestApproval({ prompt: 'Deploy now?' });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(streams()).toHaveLength(1);
    expect(streams()[0]).toMatchObject({ state: 'stopped', text: 'Ready to deploy.', continued: true });
    const sent = channel.calls.filter((call) => call.op === 'send');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.payload).toMatchObject({ status: 'waiting' });
    card.complete();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    expect(await approval).toMatchObject({ timedOut: true });
  });

  it('a channel without a streaming mode keeps send + update', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 5, 14, 0, 0) });
    const channel = memoryChannel();
    const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
    const card = cards.open('memory');
    card.push({ type: 'run.started', title: 'x' });
    card.answer('hello');
    card.complete();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(channel.calls.length).toBeGreaterThan(0);
    expect(channel.calls.every((call) => call.op === 'send' || call.op === 'update')).toBe(true);
    expect(channel.messages.get('m1')!.history.at(-1)).toMatchObject({ answer: 'hello', status: 'completed' });
  });
});
