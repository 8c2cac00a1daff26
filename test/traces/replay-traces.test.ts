/**
 * Every bundled real trace replays through sources → core → a channel, on fake time, to final cards
 * whose status matches the trace's ending and whose finished tool lines equal the trace's tool calls.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type CardView, type ProgressCard } from '@progresscard/core';
import { bundledTraces, readTrace } from '@progresscard/sources';
import { rawFacts } from '../../packages/sources/test/expected.js';

afterEach(() => vi.useRealTimers());

/**
 * How each recorded session ends, read off its last records: a user interrupt marker
 * (`[Request interrupted by user]`), Gemini's "Request cancelled.", or a final answer.
 */
const ENDINGS: Record<string, CardView['status']> = {
  'claude-session-subagent.jsonl': 'completed',
  'claude-session-tool-heavy.jsonl': 'cancelled',
  'claude-session-parallel-tasks.jsonl': 'completed',
  'claude-session-mcp.jsonl': 'completed',
  'claude-stream-json-pr52.log': 'completed',
  'codex-rollout-parallel.jsonl': 'completed',
  'codex-rollout-plain.jsonl': 'completed',
  'codex-exec-json.log': 'completed',
  'gemini-chat-cancelled.jsonl': 'cancelled',
};

describe('bundled traces replay to final cards', () => {
  it('covers every bundled trace', () => {
    expect(bundledTraces().map((trace) => trace.name).sort()).toEqual(Object.keys(ENDINGS).sort());
  });

  for (const trace of bundledTraces()) {
    it(`${trace.name}: final status matches the trace's ending, every tool call finished on the card`, async () => {
      vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
      const channel = memoryChannel({ overrides: { budget: [{ limit: 50, intervalMs: 1000 }] } });
      const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
      const byRun = new Map<number, ProgressCard>();
      const errorLines: number[] = [];
      let offset: number | undefined;
      for await (const item of readTrace(trace.path, { maxGapMs: 30_000 })) {
        if (item.kind === 'error') {
          errorLines.push(item.line);
          continue;
        }
        // Replay on the fake clock: the trace's first event is "now", later ones keep their spacing.
        const at = item.event.at ?? Date.now() - (offset ?? 0);
        offset ??= Date.now() - at;
        const due = at + offset;
        if (due > Date.now()) await vi.advanceTimersByTimeAsync(due - Date.now());
        let card = byRun.get(item.run);
        if (!card) byRun.set(item.run, (card = cards.open('memory')));
        expect(card.push({ ...item.event, at: due })).toEqual({ accepted: true });
      }
      await vi.advanceTimersByTimeAsync(60_000);
      const finals = await Promise.all([...byRun.values()].map((card) => card.finalDelivery));
      expect(finals.every((final) => final.ok)).toBe(true);

      const lastRun = Math.max(...byRun.keys());
      expect(byRun.get(lastRun)!.view().status).toBe(ENDINGS[trace.name]);
      // What the chat holds at the end: the last accepted payload of each card.
      const finalPayloads = finals.map((final) => channel.messages.get(final.message!.id)!.history.at(-1)!);
      expect(finalPayloads.map((payload) => payload.status)).toEqual([...byRun.values()].map((card) => card.view().status));
      const toolLines = finalPayloads.flatMap((payload) => payload.tools);
      expect(toolLines.filter((line) => line.includes('执行中'))).toEqual([]);
      const facts = rawFacts(trace.format, trace.path, errorLines);
      expect(toolLines).toHaveLength(facts.toolIds.size);
      expect(channel.messages.size).toBe(byRun.size);
    });
  }
});
