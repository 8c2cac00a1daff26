import { afterEach, describe, expect, it, vi } from 'vitest';
import { tickStretch, } from '../../src/index.js';
import { settle, setup as compose } from '../helpers.js';

afterEach(() => vi.useRealTimers());

describe('progressive updates switched off', () => {
  it('sends nothing while the run goes on and one card carrying the final state at the end', async () => {
    const { channel, cards } = compose({ switches: { progressive: false } });
    const card = cards.open('memory');
    card.start({ title: 'quiet run' });
    card.toolStarted('c1', 'shell', { command: 'npm test' });
    await settle(10_000);
    card.toolFinished('c1', 'ok');
    card.answer('all green');
    await settle(10_000);
    expect(channel.calls).toEqual([]);
    expect(card.view().tools).toHaveLength(1);

    card.complete();
    await settle(10_000);
    const final = await card.finalDelivery;
    expect(final.ok).toBe(true);
    expect(channel.calls.map((call) => [call.op, call.payload.status])).toEqual([['send', 'completed']]);
    expect(channel.calls[0]!.payload.answer).toBe('all green');
    // The run's real duration, not the instant of the replay.
    expect(channel.calls[0]!.payload.footer).toMatch(/^20 秒/);
  });

  it('posts a started run as cancelled on shutdown and nothing for a card never fed', async () => {
    const { channel, cards } = compose({ switches: { progressive: false } });
    const started = cards.open('memory');
    started.start({ title: 'cut short' });
    cards.open('memory');
    await cards.shutdown('deploy');
    expect(channel.calls.map((call) => [call.op, call.payload.status])).toEqual([['send', 'cancelled']]);
  });
});

describe('completion ping', () => {
  const ping = { completionPing: { afterMs: 60_000 } };

  it('replies once to the card after a run longer than the threshold, mentioning the requester', async () => {
    const { channel, cards } = compose({ switches: ping });
    const card = cards.open('memory', undefined, { requester: { id: 'ou_alice', name: 'Alice' } });
    card.start({ title: 'long build' });
    await settle(90_000);
    card.complete('done');
    await settle(10_000);
    await cards.shutdown();
    expect(channel.replies).toHaveLength(1);
    expect(channel.replies[0]).toMatchObject({ replyTo: 'm1', mention: { id: 'ou_alice', name: 'Alice' } });
    expect(channel.replies[0]!.text).toMatch(/^✅ 已完成 · 用时 1 分 3\d 秒：long build$/);
  });

  it('stays quiet for a short run, a cancelled run, and when the switch is off', async () => {
    const short = compose({ switches: ping });
    const a = short.cards.open('memory');
    a.start();
    await settle(5000);
    a.complete('quick');
    await short.cards.shutdown();
    expect(short.channel.replies).toEqual([]);
    vi.useRealTimers();

    const cancelled = compose({ switches: ping });
    const b = cancelled.cards.open('memory');
    b.start();
    await settle(90_000);
    b.cancel('user stopped it');
    await cancelled.cards.shutdown();
    expect(cancelled.channel.replies).toEqual([]);
    vi.useRealTimers();

    const off = compose({});
    const c = off.cards.open('memory');
    c.start();
    await settle(90_000);
    c.complete('done');
    await off.cards.shutdown();
    expect(off.channel.replies).toEqual([]);
  });

  it('pings a cancelled run when configured, and retries a rate-limited ping once without posting twice', async () => {
    const { channel, cards } = compose({ switches: { completionPing: { afterMs: 1000, onCancelled: true } } });
    const card = cards.open('memory');
    card.start();
    await settle(5000);
    card.cancel('stop');
    await settle(5000);
    channel.failNext({ failure: { kind: 'rate-limited', retryAfterMs: 2000, detail: '99991400' } });
    await settle(10_000);
    await cards.shutdown();
    expect(channel.replies).toHaveLength(1);
    expect(channel.replies[0]!.text).toMatch(/^⏹ 已取消/);
  });
});

describe('per-message call cap', () => {
  it('stretches the tick as a message nears its cap and always sends the final', async () => {
    const { channel, cards } = compose({ switches: { runCallCap: 10 } });
    const card = cards.open('memory');
    card.start({ title: 'capped' });
    card.toolStarted('c1', 'shell', { command: 'sleep 600' });
    await settle(600_000);
    card.toolFinished('c1', 'done');
    card.complete('finished');
    await settle(20_000);
    expect((await card.finalDelivery).ok).toBe(true);
    const accepted = channel.calls.filter((call) => !call.failure);
    expect(accepted.length).toBeLessThanOrEqual(10);
    expect(accepted.at(-1)!.payload.status).toBe('completed');
    // Updates thin out: the last gap between progressive updates is longer than the first.
    const progressive = accepted.filter((call) => call.payload.status === 'running').map((call) => call.at);
    const gaps = progressive.slice(1).map((at, i) => at - progressive[i]!);
    expect(gaps.at(-1)!).toBeGreaterThan(gaps[0]!);
  });

  it('an update the cap holds back is no call: delivery events count only the calls the platform received', async () => {
    const { channel, cards } = compose({ switches: { runCallCap: 10 } });
    const reported: string[] = [];
    cards.on('delivery', (event) => reported.push(event.call));
    const card = cards.open('memory');
    card.start({ title: 'capped' });
    card.toolStarted('c1', 'shell', { command: 'sleep 600' });
    await settle(600_000);
    card.complete('finished');
    await settle(20_000);
    expect((await card.finalDelivery).ok).toBe(true);
    const received = channel.calls.filter((call) => !call.failure);
    expect(received.length).toBeLessThanOrEqual(10);
    expect(reported).toHaveLength(received.length);
  });

  it('tickStretch is 1 until half the cap is spent and infinite when only the final call is left', () => {
    expect(tickStretch(0, 40)).toBe(1);
    expect(tickStretch(19, 40)).toBe(1);
    expect(tickStretch(29, 40)).toBe(2);
    expect(tickStretch(39, 40)).toBe(Number.POSITIVE_INFINITY);
  });
});
