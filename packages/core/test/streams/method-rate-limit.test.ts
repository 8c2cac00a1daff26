import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type CallFailure, type MemoryChannel } from '../../src/index.js';
import type { BudgetedCall, ChannelSettings } from '../../src/plugin/index.js';

afterEach(() => vi.useRealTimers());

/** A streaming memory channel whose calls draw from one budget key per method, as Slack counts them. */
function perMethodChannel(): MemoryChannel {
  const channel = memoryChannel({ streaming: { lifetime: { maxAgeMs: 300_000 } } });
  const budgetKeys = (call: BudgetedCall, settings: ChannelSettings) => [{ key: `memory:${call.stream ?? call.kind}`, windows: settings.budget }];
  return Object.assign(channel, { budgetKeys });
}

function start(failure: CallFailure) {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 5, 14, 0, 0) });
  const t0 = Date.now();
  const channel = perMethodChannel();
  channel.failNext({ op: 'start', failure });
  const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
  return { t0, channel, cards };
}

/**
 * A rate limit of one method (Slack: "per API method per app per workspace",
 * https://docs.slack.dev/apis/web-api/rate-limits) answered to a stream's start pauses that method's
 * budget keys only: the card's post (another method) goes at once, and another card's start waits
 * for the retry. Before, every 429 paused the channel's post too.
 */
describe('a rate limit scoped to the failed call\'s method', () => {
  it('a 30 s rate limit on the stream\'s start: the run ends meanwhile and its one message is posted at once, not after 30 s', async () => {
    const { t0, channel, cards } = start({ kind: 'rate-limited', scope: 'method', retryAfterMs: 30_000, detail: 'HTTP 429 on the stream start' });
    const card = cards.open('memory', undefined, { locale: 'en' });
    card.push({ type: 'run.started', title: 'Quick' });
    card.push({ type: 'answer.delta', text: 'Checking. ' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(channel.calls.map((call) => [call.op, call.failure])).toEqual([['start', 'rate-limited']]);
    card.push({ type: 'answer.delta', text: 'All good.' });
    card.push({ type: 'run.completed' });
    await vi.advanceTimersByTimeAsync(2000);
    const sends = channel.calls.filter((call) => call.op === 'send');
    expect(sends).toHaveLength(1);
    expect(sends[0]!.at - t0).toBeLessThan(5000);
    expect(sends[0]!.payload).toMatchObject({ answer: 'Checking. All good.', status: 'completed' });
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
  });

  it('another card\'s stream start waits for the 30 s the method\'s limit named', async () => {
    const { t0, channel, cards } = start({ kind: 'rate-limited', scope: 'method', retryAfterMs: 30_000, detail: 'HTTP 429 on the stream start' });
    const first = cards.open('memory', undefined, { locale: 'en' });
    first.push({ type: 'run.started', title: 'First' });
    first.push({ type: 'answer.delta', text: 'One. ' });
    await vi.advanceTimersByTimeAsync(1000);
    const second = cards.open('memory', undefined, { locale: 'en' });
    second.push({ type: 'run.started', title: 'Second' });
    second.push({ type: 'answer.delta', text: 'Two. ' });
    await vi.advanceTimersByTimeAsync(60_000);
    const starts = channel.calls.filter((call) => call.op === 'start' && !call.failure);
    expect(starts).toHaveLength(2);
    for (const call of starts) expect(call.at - t0).toBeGreaterThanOrEqual(30_000);
  });

  it('a rate limit of the whole channel still pauses the post', async () => {
    const { t0, channel, cards } = start({ kind: 'rate-limited', scope: 'channel', retryAfterMs: 30_000, detail: 'HTTP 429 for the app' });
    const card = cards.open('memory', undefined, { locale: 'en' });
    card.push({ type: 'run.started', title: 'Quick' });
    card.push({ type: 'answer.delta', text: 'Checking. ' });
    await vi.advanceTimersByTimeAsync(1000);
    card.push({ type: 'run.completed' });
    await vi.advanceTimersByTimeAsync(60_000);
    const sends = channel.calls.filter((call) => call.op === 'send');
    expect(sends).toHaveLength(1);
    expect(sends[0]!.at - t0).toBeGreaterThanOrEqual(30_000);
  });
});
