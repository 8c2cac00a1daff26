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

const at = (traceMs: number, eventsDone: number, status: 'running' | 'completed'): ReplayProgress => ({
  eventsDone,
  eventsTotal: 100,
  traceMs,
  cards: [{ channel: 'feishu', run: 1, status }],
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

  it('says the count on a status line is the calls so far (the final calls come after the status)', () => {
    const { reporter, lines, setCalls } = piped();
    setCalls(54);
    reporter.update(at(60_000, 100, 'completed'));
    expect(lines()[0]).toContain('completed (100/100 events, 54 calls so far, 0 rate-limited)');
  });
});
