import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { formatSummary, type ChannelSummary, type ReplaySummary } from '../src/replay/summary.js';

const channel = (name: string, calls: number): ChannelSummary => ({
  channel: name,
  statuses: ['completed'],
  expected: ['completed'],
  ok: true,
  calls,
  rejected: 0,
  rateLimited: 0,
  countsFrom: 'core',
  elapsedMs: 310_000,
});

const summary = (channels: ChannelSummary[]): ReplaySummary => ({
  ok: true,
  interrupted: false,
  trace: { name: 'codex-rollout-plain.jsonl', format: 'codex-rollout', events: 104, runs: 1, spanMs: 310_000, warnings: [] },
  speed: 1000,
  tickMs: 250,
  wallMs: 4300,
  channels,
});

describe('the replay summary line of a channel', () => {
  it('says "1 call" for one call (a fast --real replay sends one final) and "2 calls" for more', () => {
    const text = stripVTControlCharacters(formatSummary(summary([channel('feishu', 1), channel('dingtalk', 2)])));
    expect(text).toContain('feishu    completed · 1 call, 0 rejected (0 rate-limited)');
    expect(text).toContain('dingtalk  completed · 2 calls, 0 rejected (0 rate-limited)');
  });
});
