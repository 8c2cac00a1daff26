import { afterEach, describe, expect, it, vi } from 'vitest';
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
