import type { BudgetKey, BudgetedCall } from '../../plugin/budget-contract.js';
import { streamPacingProblem, type StreamingMode } from '../../plugin/stream-contract.js';
import type { CardDeliveryRecord } from '../card-delivery-record.js';
import { pacingIntervalMs } from '../rate-limits/budget-store.js';

/**
 * The least time (ms) between a card's stream append and the next call of the same stream (its
 * stop): the channel's per-card interval, or, when slower, the paced spacing of a budget key both
 * calls draw from (Teams counts every call of a 1:1 chat in 1800 an hour: one call per ~2 s). A
 * stream rolls over at the last call after which the next can still come before its margin.
 */
export function streamPaceMs(record: CardDeliveryRecord, perCardIntervalMs: number, keysOf: (call: BudgetedCall) => readonly BudgetKey[]): number {
  const { target } = record.card;
  const message = { id: '' };
  const append = keysOf({ kind: 'update', target, message, stream: 'append' });
  const stopKeys = new Set(keysOf({ kind: 'update', target, message, stream: 'stop' }).map((key) => key.key));
  let pace = perCardIntervalMs;
  for (const key of append) if (stopKeys.has(key.key)) pace = Math.max(pace, pacingIntervalMs(key.windows));
  return pace;
}

/**
 * Why a card paced at `paceMs` cannot keep a stream of `mode`, as one line for the operator, or
 * undefined: no call could follow a stream's start before its roll-over margin, so the stream
 * would be left to run out (and the final's stream with it).
 */
export function unkeepableStream(mode: StreamingMode, paceMs: number): string | undefined {
  const problem = streamPacingProblem(mode.lifetime, paceMs);
  if (!problem) return undefined;
  return `a card's calls are at least ${Math.round(paceMs)} ms apart (the per-card interval or its budget's pacing), and a stream living ${mode.lifetime.maxAgeMs} ms could not be stopped in time after its start: cards use the channel's edit mode`;
}
