/**
 * Elapsed times on a card come from a monotonic clock: a step of the wall clock (NTP, a resumed
 * VM, `date -s`) neither makes a running tool look an hour old nor sets the run's footer to 0 s.
 * vitest's `setSystemTime` steps `Date.now()` only, as a real clock step does.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger } from '../../src/index.js';

afterEach(() => vi.useRealTimers());

const HOUR = 3_600_000;

function openCard() {
  const cards = createProgressCards({ channels: [memoryChannel({ overrides: { perCardIntervalMs: 0 } })], logger: silentLogger, env: {} });
  const card = cards.open('memory', undefined, { locale: 'en' });
  card.start({ title: 'clock steps' });
  return { cards, card };
}

describe('durations survive wall-clock steps', () => {
  it('a running tool shows the time it really ran after the wall clock jumps an hour ahead', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const { card } = openCard();
    card.push({ type: 'tool.started', callId: 'c1', name: 'shell', args: { command: 'npm test' } });
    await vi.advanceTimersByTimeAsync(5000);
    vi.setSystemTime(Date.now() + HOUR);
    await vi.advanceTimersByTimeAsync(2000);
    const tool = card.view().tools[0]!;
    expect(tool.elapsedMs).toBe(7000);
    expect(card.view().elapsedMs).toBe(7000);
  });

  it('the run duration in the footer stays true after the wall clock steps an hour back', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const { card } = openCard();
    await vi.advanceTimersByTimeAsync(90_000);
    vi.setSystemTime(Date.now() - HOUR);
    await vi.advanceTimersByTimeAsync(10_000);
    card.complete('done');
    expect(card.view().footer.durationMs).toBe(100_000);
  });
});
