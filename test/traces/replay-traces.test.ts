/**
 * Every bundled real trace replays through sources → core → a channel, on fake time, to final cards
 * whose status matches the trace's ending and whose finished tool lines equal the trace's tool calls.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressCards, memoryChannel, silentLogger, type ProgressCard } from '@progresscard/core';
import { fakeTime, playEvents, type ScriptedEvent } from '@progresscard/core/testing';
import { bundledTraces, readTrace } from '@progresscard/sources';
import { rawFacts } from '../../packages/sources/test/expected.js';
import { ENDINGS } from './endings.js';

afterEach(() => vi.useRealTimers());


describe('bundled traces replay to final cards', () => {
  it('covers every bundled trace', () => {
    expect(bundledTraces().map((trace) => trace.name).sort()).toEqual(Object.keys(ENDINGS).sort());
  });

  for (const trace of bundledTraces()) {
    it(`${trace.name}: final status matches the trace's ending, every tool call finished on the card`, async () => {
      vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
      const channel = memoryChannel({ overrides: { budget: [{ limit: 50, intervalMs: 1000 }] } });
      const cards = createProgressCards({ channels: [channel], logger: silentLogger, env: {} });
      const time = fakeTime(vi);
      const byRun = new Map<number, ProgressCard>();
      const errorLines: number[] = [];
      const script: Array<{ run: number; event: ScriptedEvent }> = [];
      let first: number | undefined;
      let last = 0;
      for await (const item of readTrace(trace.path, { maxGapMs: 30_000 })) {
        if (item.kind === 'error') {
          errorLines.push(item.line);
          continue;
        }
        // Script time: ms since the trace's first stamp; an event without a stamp keeps the previous one.
        first ??= item.event.at;
        last = item.event.at !== undefined && first !== undefined ? Math.max(last, item.event.at - first) : last;
        script.push({ run: item.run, event: { ...item.event, at: last } });
      }
      // Each run gets its card; the events of all runs play in trace order on the fake clock.
      const router = {
        index: 0,
        push: (event: unknown) => {
          const { run } = script[router.index++]!;
          const card = byRun.get(run) ?? cards.open('memory');
          byRun.set(run, card);
          return card.push(event);
        },
      };
      const results = await playEvents(router, script.map((s) => s.event), time);
      expect(results.filter((r) => !r.accepted)).toEqual([]);
      await time.advance(60_000);
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
