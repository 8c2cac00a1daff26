import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgressReporter, PIPE_PROGRESS_EVERY_MS } from '../src/terminal/progress.js';
import type { ReplayProgress } from '../src/replay/engine.js';

function piped() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  let calls = 0;
  const reporter = createProgressReporter({ stream, channels: ['feishu'], counts: () => ({ calls, accepted: calls, rejected: 0, rateLimited: 0 }), live: false });
  return { reporter, lines: () => text.split('\n').filter(Boolean), setCalls: (n: number) => (calls = n) };
}

/** The lines about a card's status (not the periodic progress lines). */
const statusLines = (lines: string[]) => lines.filter((line) => /\] feishu( run \d+)?: /.test(line));

/** `final`: the card's final delivery settled, with this many calls in all (final included). */
const at = (traceMs: number, eventsDone: number, status: 'running' | 'completed', final?: { calls: number }): ReplayProgress => ({
  eventsDone,
  eventsTotal: 100,
  traceMs,
  cards: [{ channel: 'feishu', run: 1, status, settled: final !== undefined, ...(final ? { calls: final.calls } : {}) }],
  stats: {},
});

describe('progress lines when the output is not a terminal', () => {
  it('prints a progress line between status changes, so a piped run is never silent for long', () => {
    const { reporter, lines, setCalls } = piped();
    reporter.update(at(0, 1, 'running'));
    setCalls(7);
    reporter.update(at(PIPE_PROGRESS_EVERY_MS / 2, 20, 'running'));
    expect(lines()).toHaveLength(1);
    reporter.update(at(PIPE_PROGRESS_EVERY_MS + 1, 40, 'running'));
    expect(lines()).toEqual([expect.stringContaining('running'), '[0:15] 40/100 events · feishu 7 calls']);
  });

  it("a card's end is printed once every call was made, with every call, final included", () => {
    const { reporter, lines, setCalls } = piped();
    setCalls(54);
    // The agent's last event: the card is completed, its final calls are still to come.
    reporter.update(at(60_000, 100, 'completed'));
    setCalls(56);
    reporter.update(at(60_000, 100, 'completed', { calls: 56 }));
    // The completion ping's check of the chat comes after the final: the line waits for the end of the replay.
    setCalls(57);
    expect(statusLines(lines())).toEqual([]);
    reporter.stop();
    expect(statusLines(lines())).toEqual(['[1:00] feishu: completed (100/100 events, 57 calls for this card, final included, 0 rate-limited)']);
    reporter.stop();
    expect(statusLines(lines())).toHaveLength(1);
  });

  it("an earlier run's card is printed once its final settled, with its own calls; the last one gets the rest of the channel's", () => {
    const { reporter, lines, setCalls } = piped();
    const progress = (cards: ReplayProgress['cards']): ReplayProgress => ({ eventsDone: 50, eventsTotal: 100, traceMs: 30_000, cards, stats: {} });
    const run1 = { channel: 'feishu', run: 1, status: 'completed', settled: true, calls: 30 } as const;
    setCalls(31);
    reporter.update(progress([run1, { channel: 'feishu', run: 2, status: 'running', settled: false }]));
    expect(statusLines(lines())).toEqual([
      '[0:30] feishu run 1: completed (50/100 events, 30 calls for this card, final included, 0 rate-limited)',
      '[0:30] feishu run 2: running (50/100 events, 31 calls so far, 0 rate-limited)',
    ]);
    setCalls(70);
    reporter.update(progress([run1, { channel: 'feishu', run: 2, status: 'completed', settled: true, calls: 39 }]));
    reporter.stop();
    expect(statusLines(lines()).at(-1)).toBe('[0:30] feishu run 2: completed (50/100 events, 40 calls for this card, final included, 0 rate-limited)');
  });

  it('a card whose final never settled is still printed when the replay stops, saying so', () => {
    const { reporter, lines, setCalls } = piped();
    setCalls(54);
    reporter.update(at(60_000, 100, 'completed'));
    reporter.stop();
    expect(statusLines(lines())).toEqual(['[1:00] feishu: completed (100/100 events, 54 calls so far, final not settled, 0 rate-limited)']);
  });
});
