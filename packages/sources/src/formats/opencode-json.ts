import type { RunBuilder } from '../run-builder.js';
import { argsText, isObject, num, parseTime, str, summarize, type Json } from '../text.js';
import type { Converter } from './converter.js';

/** Tool-part statuses after which an OpenCode call has its result. */
const DONE = new Set(['completed', 'error']);

/**
 * OpenCode JSON events (`opencode run --format json`, and forks that keep its shape, e.g.
 * @link-assistant/agent; seen: January 2026, model opencode/big-pickle). Each event is
 * `{type, timestamp (epoch ms), sessionID, part}`, one per line or pretty-printed, optionally after
 * a wrapper's `[ISO time] [LEVEL] ` log prefix. The stream carries no prompt: the run is untitled.
 *
 * - `step_start` opens a round (and the run, at the first one); `step_finish` ends the step and
 *   sends its `tokens` (input with cache reads and writes; output with reasoning).
 * - `tool_use`: the part's `state` moves pending → running → completed | error; the call starts at
 *   its first sighting (at `state.time.start` when given) and finishes at `completed` / `error`
 *   (at `state.time.end`); `error` or a non-zero `metadata.exit` is an error. Summary: the output's
 *   first line.
 * - `text` → answer; `reasoning` → thinking.
 * - `error` (e.g. "The operation timed out.") fails the run, whatever the wrapper says afterwards,
 *   unless the agent goes on (a later step or tool call: forks retry after "socket connection
 *   closed"): then the error is a note in the thinking text and the run continues. A `step_finish`
 *   with reason `stop` after the last step completes it; otherwise the run ends as the trace suggests.
 */
export function opencodeJson(b: RunBuilder): Converter {
  let failed: string | undefined;
  /** An error the run may still recover from: it fails the run only if nothing follows. */
  let pendingError: string | undefined;

  /** Agent activity after an error: the run went on, the error was a passing one. */
  const recovered = (): void => {
    if (pendingError === undefined) return;
    b.thinking(`⚠ ${pendingError}`);
    pendingError = undefined;
  };
  const failPending = (): void => {
    if (pendingError === undefined) return;
    failed = pendingError;
    pendingError = undefined;
    b.fail(failed);
  };

  function toolUse(part: Json): void {
    const callId = str(part.callID) ?? str(part.id);
    const name = str(part.tool);
    if (!callId || !name) {
      b.error(`tool_use part without ${callId ? 'a tool name' : 'a callID'}`);
      return;
    }
    const state = isObject(part.state) ? part.state : {};
    const time = isObject(state.time) ? state.time : {};
    const status = str(state.status) ?? '';
    if (b.openToolName(callId) === undefined) {
      b.tick(num(time.start));
      b.modelOutput();
      b.toolStarted(callId, name, argsText(state.input ?? {}));
    }
    if (!DONE.has(status)) return;
    b.tick(num(time.end));
    const metadata = isObject(state.metadata) ? state.metadata : {};
    const exit = num(metadata.exit);
    const error = status === 'error' ? (str(state.error) ?? 'error') : undefined;
    b.inputArrived();
    b.toolFinished(callId, { summary: summarize(error ?? str(state.output)), isError: error !== undefined || (exit !== undefined && exit !== 0) });
  }

  return {
    record(value: unknown, at: number | undefined): void {
      if (!isObject(value)) return;
      b.tick(at);
      b.tick(parseTime(value.timestamp));
      const part = isObject(value.part) ? value.part : {};
      switch (value.type) {
        case 'step_start':
          if (failed) return;
          recovered();
          b.inputArrived();
          b.modelOutput();
          return;
        case 'tool_use':
          if (failed) return;
          recovered();
          toolUse(part);
          return;
        case 'text':
          // Text after an error is the failing step's own remainder, not a sign the agent went on.
          if (failed || pendingError !== undefined) return;
          b.modelOutput();
          b.answer(str(part.text) ?? '', str(part.messageID) ?? `line ${b.line}`);
          return;
        case 'reasoning':
          if (failed || pendingError !== undefined) return;
          b.modelOutput();
          b.thinking(str(part.text) ?? '');
          return;
        case 'step_finish': {
          const tokens = isObject(part.tokens) ? part.tokens : {};
          const cache = isObject(tokens.cache) ? tokens.cache : {};
          const input = (num(tokens.input) ?? 0) + (num(cache.read) ?? 0) + (num(cache.write) ?? 0);
          const output = (num(tokens.output) ?? 0) + (num(tokens.reasoning) ?? 0);
          if (!failed && (input > 0 || output > 0)) b.usage({ inputTokens: input, outputTokens: output, contextTokens: input + output });
          if (!failed && pendingError === undefined && part.reason === 'stop') b.complete();
          return;
        }
        case 'error': {
          const error = isObject(value.error) ? (str(value.error.message) ?? str(value.error.name)) : str(value.error);
          if (!failed) pendingError = error ?? 'error';
          return;
        }
        default:
          return;
      }
    },
    end(): void {
      failPending();
      b.finish();
    },
  };
}
