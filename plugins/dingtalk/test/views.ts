import type { CardView, Locale } from '@progresscard/core/plugin';
import { viewAfterEvents, type ScriptedEvent } from '@progresscard/core/testing';

/** 2026-01-01T08:00:00Z: fixed so footers (sent-at time) are deterministic. */
const T0 = Date.UTC(2026, 0, 1, 8, 0, 0);

/** A view after `events` (each `at` is ms from T0), looked at `nowOffsetMs` after T0. */
export function viewAfter(events: ReadonlyArray<Record<string, unknown>>, nowOffsetMs: number, locale: Locale = 'zh-CN'): CardView {
  return viewAfterEvents(events as readonly ScriptedEvent[], { startAt: T0, lookAtMs: nowOffsetMs, locale });
}

const start = { type: 'run.started', at: 0, title: 'Refactor parser', model: 'model-x' };

/** One view per status, in `locale`. */
export function viewsByStatus(locale: Locale): Record<'running' | 'waiting' | 'completed' | 'failed' | 'cancelled', CardView> {
  const base = [
    { ...start, locale },
    { type: 'round.started', at: 10, round: 1 },
    { type: 'tool.started', at: 20, callId: 'c1', name: 'shell', args: '{"command":"npm test"}' },
  ];
  const done = [...base, { type: 'tool.finished', at: 4000, callId: 'c1', summary: '212 passed' }, { type: 'answer.delta', at: 4100, text: 'All tests pass.' }];
  return {
    running: viewAfter(base, 5020, locale),
    waiting: viewAfter([...done, { type: 'interaction.requested', at: 4200, prompt: 'Allow git push?' }], 4300, locale),
    completed: viewAfter([...done, { type: 'run.completed', at: 4400 }], 4500, locale),
    failed: viewAfter([...base, { type: 'run.failed', at: 3000, error: 'model overloaded' }], 3100, locale),
    cancelled: viewAfter([...base, { type: 'run.cancelled', at: 3000, reason: 'stopped by user' }], 3100, locale),
  };
}
