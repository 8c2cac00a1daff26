import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, MAX_TIMER_MS, memoryChannel, silentLogger, type ProgressCardsOptions } from '../../src/index.js';
import { sleepMs } from '../../src/shared/timer-duration.js';

afterEach(() => vi.useRealTimers());

const OVER = 2 ** 31;

function compose(options: Partial<ProgressCardsOptions> = {}, overrides: Record<string, unknown> = {}) {
  return createProgressCards({ channels: [memoryChannel({ overrides: { perCardIntervalMs: 0, ...overrides } })], logger: silentLogger, env: {}, ...options });
}

describe('a duration past setTimeout\'s limit (2^31 - 1 ms) is refused where it is configured, naming the field and value', () => {
  it.each([
    'callTimeoutMs', 'perCardIntervalMs', 'debounceMs',
  ])('channel %s', (field) => {
    expect(() => compose({}, { [field]: OVER })).toThrow(new RegExp(`memory ${field} = 2147483648\\W+at most 2147483647 ms`));
  });

  it('a channel budget window', () => {
    expect(() => compose({}, { budget: [{ limit: 5, intervalMs: OVER }] })).toThrow(/memory budget.0.intervalMs = 2147483648\W+at most 2147483647 ms/);
  });

  it('composition options: stall, retry delays, lease and orphan grace', () => {
    expect(() => compose({ stall: { stallMs: OVER, abandonMs: OVER + 1000 } })).toThrow('stall.stallMs = 2147483648: at most 2147483647 ms');
    expect(() => compose({ retry: { probeDelaysMs: [5000, OVER] } })).toThrow('retry.probeDelaysMs[1] = 2147483648: at most 2147483647 ms');
    expect(() => compose({ retry: { finalRetryDelaysMs: [-1] } })).toThrow('retry.finalRetryDelaysMs[0] = -1: must be at least 0 ms');
    expect(() => compose({ leaseTtlMs: OVER })).toThrow('leaseTtlMs = 2147483648: at most 2147483647 ms');
    expect(() => compose({ orphanGraceMs: OVER })).toThrow('orphanGraceMs = 2147483648: at most 2147483647 ms');
  });

  it('open quietPeriodMs, a question\'s timeoutMs and the shutdown deadline', async () => {
    const cards = compose();
    expect(() => cards.open('memory', undefined, { quietPeriodMs: OVER })).toThrow('quietPeriodMs = 2147483648: at most 2147483647 ms');
    const card = cards.open('memory');
    card.start({ title: 'x' });
    await expect(card.requestApproval({ prompt: 'ok?', timeoutMs: OVER })).rejects.toThrow('timeoutMs = 2147483648: at most 2147483647 ms');
    await expect(cards.shutdown({ deadlineMs: OVER })).rejects.toThrow('shutdown deadlineMs = 2147483648: at most 2147483647 ms');
  });
});

describe('the longest allowed durations wait as long as they say', () => {
  it('a question with timeoutMs = MAX_TIMER_MS is still open a day later, and a stall of MAX_TIMER_MS has not marked the card', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const cards = compose({ stall: { stallMs: MAX_TIMER_MS, abandonMs: MAX_TIMER_MS } });
    const card = cards.open('memory', undefined, { locale: 'en' });
    card.start({ title: 'long waits' });
    let decided = false;
    void card.requestApproval({ prompt: 'ok?', timeoutMs: MAX_TIMER_MS }).then(() => (decided = true));
    await vi.advanceTimersByTimeAsync(86_400_000);
    expect(decided).toBe(false);
    expect(card.status).toBe('waiting');
    card.complete('done');
    expect((await card.finalDelivery).ok).toBe(true);
    expect(decided).toBe(true);
  });

  it('a computed wait longer than the limit is chained: it does not end early', async () => {
    vi.useFakeTimers({ now: 0 });
    let done = false;
    void sleepMs(MAX_TIMER_MS + 60_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(done).toBe(true);
  });
});
