import type { RunBuilder } from '../run-builder.js';
import { isObject, num, str, type Json } from '../text.js';
import type { Converter } from './converter.js';
import { ClaudeBlocks, classifyPrompt, MAIN } from './claude-shared.js';

/** The largest `contextWindow` in a result's `modelUsage`. */
function contextWindow(modelUsage: unknown): number | undefined {
  if (!isObject(modelUsage)) return undefined;
  let best: number | undefined;
  for (const entry of Object.values(modelUsage)) {
    const window = isObject(entry) ? num(entry.contextWindow) : undefined;
    if (window !== undefined && window > 0) best = Math.max(best ?? 0, window);
  }
  return best;
}

/**
 * The run's token totals as a `result` event states them: summed over `modelUsage` (every model,
 * e.g. the main model and the haiku helper; input counts cache reads and writes), else its `usage`.
 */
function resultTotals(record: Json): { inputTokens: number; outputTokens: number } | undefined {
  const models = isObject(record.modelUsage) ? Object.values(record.modelUsage).filter(isObject) : [];
  if (models.length > 0) {
    let inputTokens = 0;
    let outputTokens = 0;
    for (const entry of models) {
      inputTokens += (num(entry.inputTokens) ?? 0) + (num(entry.cacheReadInputTokens) ?? 0) + (num(entry.cacheCreationInputTokens) ?? 0);
      outputTokens += num(entry.outputTokens) ?? 0;
    }
    return { inputTokens, outputTokens };
  }
  const usage = isObject(record.usage) ? record.usage : undefined;
  if (!usage || num(usage.output_tokens) === undefined) return undefined;
  const inputTokens = (num(usage.input_tokens) ?? 0) + (num(usage.cache_read_input_tokens) ?? 0) + (num(usage.cache_creation_input_tokens) ?? 0);
  return { inputTokens, outputTokens: num(usage.output_tokens) ?? 0 };
}

/** The error text of a failed `result` event. */
function resultError(record: Json): string {
  const errors = Array.isArray(record.errors) ? record.errors.filter((e): e is string => typeof e === 'string') : [];
  return str(record.result) || errors.join('; ') || str(record.subtype) || 'the run failed';
}

/**
 * Claude Code `--output-format stream-json` events. Events carry no timestamps: with a log prefix
 * (`[ISO time] [LEVEL] `) the prefix time is used, otherwise the time the line was read.
 *
 * - `system`/`init` opens a run (its time is the run's start; its `model` the run's model); a run
 *   still going ends first. The prompt is not in the stream; a replayed user text message
 *   (`--replay-user-messages`) becomes the title.
 * - `assistant` / `user` events are handled like transcript lines ({@link ClaudeBlocks}); events
 *   with a `parent_tool_use_id` belong to the subagent of that Task call.
 * - `result` ends the run: `success` without `is_error` completes it with `result` as the answer,
 *   anything else fails it; it ends no earlier than the run's start + `duration_ms`. Its per-model
 *   `contextWindow` goes out as a last usage event, and so does what its token totals (see
 *   {@link resultTotals}) add to the usage already sent, so the card's totals are the run's own.
 * - `stream_event` partial deltas and other system events are skipped.
 */
export function claudeStreamJson(b: RunBuilder): Converter {
  const blocks = new ClaudeBlocks(b);

  return {
    record(value: unknown, at: number | undefined): void {
      if (!isObject(value)) return;
      b.tick(at);
      const parent = str(value.parent_tool_use_id);
      const origin = parent ? ({ kind: 'subagent', parentId: parent } as const) : MAIN;
      switch (value.type) {
        case 'system':
          if (value.subtype === 'init') {
            b.endRun();
            b.setModel(str(value.model));
            b.prompt(undefined);
          }
          return;
        case 'assistant':
          blocks.assistant(value.message, origin);
          return;
        case 'user': {
          if (!isObject(value.message)) return;
          if (origin.kind === 'subagent' && !b.runActive) return;
          const text = blocks.user(value.message.content);
          if (text === undefined || origin.kind === 'subagent') return;
          const prompt = classifyPrompt(text);
          if (prompt.kind === 'prompt' || prompt.kind === 'command') b.prompt(prompt.title);
          return;
        }
        case 'result': {
          // The run lasted `duration_ms`: without timestamps (read times only) this keeps its length.
          const duration = num(value.duration_ms);
          const started = b.runStartedAt;
          if (duration !== undefined && started !== undefined) b.tick(started + duration);
          blocks.flushAll();
          const window = contextWindow(value.modelUsage);
          if (window !== undefined) b.usage({ contextWindow: window });
          const cost = num(value.total_cost_usd);
          if (cost !== undefined) b.usage({ totalCostUsd: cost });
          // Streamed messages under-report output (their usage is a snapshot taken mid-message) and
          // helper models are not streamed at all: the result's totals are the run's own numbers.
          const totals = resultTotals(value);
          if (totals) {
            const sent = blocks.sentTotals;
            const input = Math.max(0, totals.inputTokens - sent.inputTokens);
            const output = Math.max(0, totals.outputTokens - sent.outputTokens);
            if (input > 0 || output > 0) b.usage({ inputTokens: input, outputTokens: output });
          }
          if (value.subtype === 'success' && value.is_error !== true) b.complete(str(value.result));
          else b.fail(resultError(value));
          return;
        }
        default:
          return;
      }
    },
    end(): void {
      b.finish();
    },
  };
}
