import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type MemoryCall } from '../../src/index.js';
import { settle, setup } from '../helpers.js';
import { maxCallsInWindow } from '../../src/testing/index.js';

afterEach(() => vi.useRealTimers());

/** The most calls in any window of `windowMs`. */
function maxInWindow(calls: readonly MemoryCall[], windowMs: number): number {
  return maxCallsInWindow(calls.map((call) => call.at), windowMs);
}

describe('coalescing', () => {
  it('keeps one request in flight per card, sends the latest state, never an older one after a newer', async () => {
    const { channel, cards } = setup({ latencyMs: 400 });
    const card = cards.open('memory');
    for (let i = 0; i < 30; i++) {
      card.toolStarted(`c${i}`, 'shell', `{"command":"step ${i}"}`);
      await settle(37);
      card.toolFinished(`c${i}`, `ok ${i}`);
    }
    card.complete('all steps done');
    await settle(10_000);
    expect(channel.inFlight.max).toBe(1);
    // Progress only moves forward in what the platform receives: lines and finished lines never shrink.
    const progress = channel.calls.map((call) => call.payload.tools.length * 1000 + call.payload.tools.filter((t) => t.includes('完成')).length);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(channel.calls.length).toBeLessThan(30);
    expect(channel.messages.get('m1')!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'all steps done' });
    expect(channel.messages.get('m1')!.history.at(-1)!.tools).toHaveLength(30);
  });

  it('sends nothing when the render equals the last accepted one', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    card.start({ title: 'same' });
    await settle(1000);
    card.start({ title: 'same' });
    card.roundStarted(1);
    card.roundStarted(1);
    await settle(1000);
    card.usage({});
    await settle(1000);
    // title sent, round 1 updated; the repeated title, repeated round and empty usage cost nothing.
    expect(channel.calls.filter((call) => call.op === 'update')).toHaveLength(1);
    expect(cards.stats('memory').unchanged).toBeGreaterThan(0);
  });
});

describe('shared budget', () => {
  it('5/s across 20 cards is never exceeded in any window, and every card converges to its latest state', async () => {
    const { channel, cards } = setup({ overrides: { budget: [{ limit: 5, intervalMs: 1000 }], perCardIntervalMs: 250 } });
    const all = Array.from({ length: 20 }, () => cards.open('memory'));
    for (let step = 0; step < 10; step++) {
      for (const [index, card] of all.entries()) {
        card.toolStarted(`s${step}`, 'shell', `{"command":"card ${index} step ${step}"}`);
        card.toolFinished(`s${step}`, `done ${step}`);
      }
      await settle(300);
    }
    for (const [index, card] of all.entries()) card.complete(`answer ${index}`);
    await settle(60_000);
    expect(maxInWindow(channel.calls, 1000)).toBeLessThanOrEqual(5);
    expect(channel.messages.size).toBe(20);
    for (const [index, card] of all.entries()) {
      const final = await card.finalDelivery;
      expect(final.ok).toBe(true);
      const last = channel.messages.get(final.message!.id)!.history.at(-1)!;
      expect(last).toMatchObject({ status: 'completed', answer: `answer ${index}` });
      expect(last.tools).toHaveLength(10);
    }
  });

  it('honours several windows at once (3/s and 5 per 4 s)', async () => {
    const { channel, cards } = setup({ overrides: { budget: [{ limit: 3, intervalMs: 1000 }, { limit: 5, intervalMs: 4000 }], perCardIntervalMs: 0 } });
    const all = Array.from({ length: 8 }, () => cards.open('memory'));
    for (const [i, card] of all.entries()) card.complete(`a${i}`);
    await settle(30_000);
    expect(channel.calls).toHaveLength(8);
    expect(maxInWindow(channel.calls, 1000)).toBeLessThanOrEqual(3);
    expect(maxInWindow(channel.calls, 4000)).toBeLessThanOrEqual(5);
  });

  it('under overload sends terminal states first, then structural changes, then elapsed refreshes', async () => {
    const { channel, cards } = setup({ overrides: { budget: [{ limit: 1, intervalMs: 1000 }], perCardIntervalMs: 0, tickMs: 1000 } });
    const ticking = cards.open('memory');
    const structural = cards.open('memory');
    const finishing = cards.open('memory');
    await settle(5000); // let the three first sends out
    ticking.toolStarted('t', 'shell', '{"command":"sleep"}');
    await settle(1000); // t=+1s: ticking gets its structural update
    structural.answer('x'.repeat(8000)); // released at once: structural
    finishing.complete('first!');
    const before = channel.calls.length;
    await settle(3000);
    const order = channel.calls.slice(before).map((call) => call.messageId);
    const ids = { finishing: (await finishing.finalDelivery).message!.id };
    expect(order[0]).toBe(ids.finishing);
    expect(channel.calls.slice(before)[1]!.payload.answer).toHaveLength(8000);
  });

  it('a card with many changes cannot starve the others', async () => {
    const { channel, cards } = setup({ overrides: { budget: [{ limit: 2, intervalMs: 1000 }], perCardIntervalMs: 0 } });
    const busy = cards.open('memory');
    const quiet = cards.open('memory');
    busy.start({ title: 'busy' });
    quiet.start({ title: 'quiet' });
    await settle(2000);
    const before = channel.calls.length;
    for (let i = 0; i < 20; i++) {
      busy.roundStarted(i + 1);
      if (i === 1) quiet.roundStarted(1);
      await settle(100);
    }
    await settle(2000);
    const later = channel.calls.slice(before);
    const quietAt = later.findIndex((call) => call.payload.title === 'quiet');
    // busy changed 20 times in 2 s; quiet changed once and still got the second slot after its change.
    expect(quietAt).toBeGreaterThanOrEqual(0);
    expect(quietAt).toBeLessThanOrEqual(2);
    expect(later.filter((call) => call.payload.title === 'busy').at(-1)!.payload.round).toBe(20);
  });
});

describe('failures', () => {
  it('final is retried with backoff 1 s, 2 s, 4 s, then sent as a fresh message, exactly once', async () => {
    const { channel, cards, t0 } = setup();
    const card = cards.open('memory');
    card.start({ title: 'x' });
    await settle(1000);
    channel.failNext({ op: 'update', failure: { kind: 'transient', detail: 'HTTP 502' }, times: 4 });
    card.complete('finally');
    await settle(20_000);
    const final = await card.finalDelivery;
    const failedUpdates = channel.calls.filter((call) => call.op === 'update' && call.failure).map((call) => call.at - t0);
    expect(failedUpdates).toEqual([1000, 2000, 4000, 8000]);
    expect(final).toMatchObject({ ok: true, freshMessage: true, attempts: 5 });
    expect(channel.messages.size).toBe(2);
    expect(channel.messages.get(final.message!.id)!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'finally' });
    await settle(30_000);
    // The answer reaches the chat once; the given-up card no longer says "running" but points to the new one.
    expect(channel.calls.filter((call) => call.payload.answer === 'finally' && !call.failure)).toHaveLength(1);
    const firstId = [...channel.messages.keys()].find((id) => id !== final.message!.id)!;
    const moved = channel.messages.get(firstId)!.history.at(-1)!;
    expect(moved.status).toBe('completed');
    expect(moved.answer).toContain('新卡片');
    expect(moved.answer).not.toContain('finally');
  });

  it('a given-up card that still refuses the moved notice costs one call and nothing else', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    card.start({ title: 'x' });
    await settle(1000);
    channel.failNext({ op: 'update', failure: { kind: 'transient', detail: 'HTTP 502' }, times: 5 });
    card.complete('finally');
    await settle(30_000);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, freshMessage: true });
    expect(channel.calls.filter((call) => call.op === 'update' && call.failure)).toHaveLength(5);
    const calls = channel.calls.length;
    await settle(30_000);
    expect(channel.calls.length).toBe(calls);
  });

  it('reports a final that could not be delivered at all', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    channel.failNext({ failure: { kind: 'transient', detail: 'down' }, times: 100 });
    card.fail('boom');
    await settle(60_000);
    const final = await card.finalDelivery;
    // No message ever existed, so nothing was replaced by a fresh one.
    expect(final).toMatchObject({ ok: false, status: 'failed', error: 'down', freshMessage: false });
    const calls = channel.calls.length;
    await settle(60_000);
    expect(channel.calls.length).toBe(calls);
  });

  it('a gone message gets a fresh card on the next change, not on ticks', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    card.toolStarted('w', 'shell', '{"command":"./deploy.sh"}');
    await settle(3500);
    channel.recall('m1');
    await settle(10_000);
    const toRecalled = channel.calls.filter((call) => call.messageId === 'm1' && call.failure === 'gone');
    expect(toRecalled).toHaveLength(1);
    expect(channel.messages.size).toBe(1);
    card.toolFinished('w', 'deployed');
    card.complete('Deployed.');
    await settle(5000);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, freshMessage: true });
    expect(channel.messages.get(final.message!.id)!.history.at(-1)).toMatchObject({ status: 'completed', answer: 'Deployed.' });
  });

  it('a rejected payload degrades to the plain-text render', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    card.start();
    await settle(500);
    channel.failNext({ op: 'update', failure: { kind: 'rejected', detail: '230099' } });
    card.complete('ok');
    await settle(5000);
    await card.finalDelivery;
    expect(channel.calls.at(-1)).toMatchObject({ op: 'update', failure: undefined });
    expect(channel.calls.at(-1)!.payload).toMatchObject({ format: 'text', status: 'completed', answer: 'ok' });
  });

  it('refreshes credentials once on an auth failure and retries at once', async () => {
    vi.useFakeTimers();
    const channel = memoryChannel();
    let refreshed = 0;
    const plugin = { ...channel, transport: { ...channel.transport, refreshAuth: async () => void refreshed++ } };
    const cards = createProgressCards({ channels: [plugin], logger: silentLogger, env: {} });
    const card = cards.open('memory');
    channel.failNext({ op: 'send', failure: { kind: 'auth', detail: '99991663' } });
    card.complete('after refresh');
    await settle(5000);
    const final = await card.finalDelivery;
    expect(refreshed).toBe(1);
    expect(final.ok).toBe(true);
    expect(channel.calls.map((call) => call.failure)).toEqual(['auth', undefined]);
  });

  it('pauses progressive updates after 3 consecutive failures, probes with backoff, resumes once a probe gets through, and delivers the final', async () => {
    const { channel, cards } = setup({ overrides: { tickMs: 1000 } });
    const card = cards.open('memory');
    card.toolStarted('a', 'shell', '{"command":"make"}');
    await settle(500);
    channel.failNext({ op: 'update', failure: { kind: 'transient', detail: '500' }, times: 3 });
    await settle(30_000);
    const failures = channel.calls.filter((call) => call.failure);
    expect(failures).toHaveLength(3);
    const after = channel.calls.filter((call) => call.at > failures[2]!.at);
    // Paused: the first probe comes 5 s after the third failure, not with the next tick.
    expect(after[0]!.at - failures[2]!.at).toBe(5000);
    // It gets through with the latest state and says so; the ticks resume.
    expect(after.length).toBeGreaterThanOrEqual(3);
    expect(after.every((call) => !call.failure && call.payload.notice?.startsWith('⚠️ 实时更新自'))).toBe(true);
    card.complete('made');
    await settle(5000);
    const final = await card.finalDelivery;
    expect(final.ok).toBe(true);
    expect(channel.calls.at(-1)!.payload).toMatchObject({ status: 'completed', answer: 'made' });
  });

  it('a channel-wide rate limit pauses every card of the channel', async () => {
    const { channel, cards, t0 } = setup({ overrides: { perCardIntervalMs: 0 } });
    const a = cards.open('memory');
    const b = cards.open('memory');
    a.start();
    b.start();
    await settle(1000);
    channel.failNext({ op: 'update', failure: { kind: 'rate-limited', retryAfterMs: 3000, scope: 'channel', detail: '429' } });
    a.roundStarted(1);
    await settle(10);
    b.roundStarted(1);
    await settle(5000);
    const after = channel.calls.filter((call) => call.at - t0 > 1000 && !call.failure).map((call) => call.at - t0);
    expect(after.length).toBe(2);
    expect(Math.min(...after)).toBeGreaterThanOrEqual(4000);
  });

  it('one bad event never breaks its card or another card', async () => {
    const { channel, cards } = setup();
    const a = cards.open('memory');
    const b = cards.open('memory');
    const result = a.push({ type: 'tool.started', callId: 42 });
    expect(result).toMatchObject({ accepted: false, reason: 'invalid' });
    expect(result.accepted === false && result.reason === 'invalid' && result.error.message).toContain('tool.started.callId = 42');
    a.push(null);
    a.complete('a ok');
    b.complete('b ok');
    await settle(5000);
    expect((await a.finalDelivery).ok).toBe(true);
    expect((await b.finalDelivery).ok).toBe(true);
    expect(channel.messages.size).toBe(2);
  });

  it('a renderer that throws for one card degrades that card to the fallback and never stalls the others', async () => {
    vi.useFakeTimers();
    const channel = memoryChannel();
    const render = channel.renderer.render;
    const plugin = { ...channel, renderer: { ...channel.renderer, render: (view: Parameters<typeof render>[0]) => {
      if (view.title === 'boom') throw new TypeError('cannot read properties of undefined');
      return render(view);
    } } };
    const cards = createProgressCards({ channels: [plugin], logger: silentLogger, env: {} });
    const bad = cards.open('memory', undefined, { title: 'boom' });
    const good = cards.open('memory', undefined, { title: 'fine' });
    bad.complete('still delivered');
    good.complete('delivered');
    await settle(10_000);
    const [badFinal, goodFinal] = await Promise.all([bad.finalDelivery, good.finalDelivery]);
    expect(goodFinal.ok).toBe(true);
    expect(badFinal.ok).toBe(true);
    expect(channel.messages.get(badFinal.message!.id)!.history.at(-1)).toMatchObject({ format: 'text', answer: 'still delivered' });
  });

  it('after a refused progressive update the card goes plain text, but the final tries the rich card again', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory');
    card.start({ title: 'degrade' });
    await settle(500);
    channel.failNext({ op: 'update', failure: { kind: 'rejected', detail: '230099' } });
    card.roundStarted(1);
    await settle(1000);
    expect(channel.calls.at(-1)!.payload).toMatchObject({ format: 'text', round: 1 });
    card.complete('rich again');
    await settle(5000);
    expect((await card.finalDelivery).ok).toBe(true);
    expect(channel.calls.at(-1)!.payload).toMatchObject({ format: 'rich', status: 'completed', answer: 'rich again' });
  });
});
