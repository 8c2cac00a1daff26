import type { RunBuilder, ToolResult } from '../run-builder.js';
import { argsText, isObject, num, str, summarize, type Json } from '../text.js';
import { claudeStreamJson } from './claude-stream-json.js';
import type { Converter } from './converter.js';

/** The tool of a Cursor `tool_call` object: `{shellToolCall: {args, result}}` → `shell`. */
function toolOf(toolCall: unknown): { name: string; body: Json } | undefined {
  if (!isObject(toolCall)) return undefined;
  for (const [key, body] of Object.entries(toolCall)) {
    if (isObject(body)) return { name: key.replace(/ToolCall$/, '') || key, body };
  }
  return undefined;
}

/** A Cursor tool result: `{success: {exitCode, stdout, stderr, executionTime}}` or `{error|failure|rejected: …}`. */
function cursorResult(result: unknown): ToolResult {
  if (!isObject(result)) return {};
  const success = isObject(result.success) ? result.success : undefined;
  if (success) {
    const exitCode = num(success.exitCode);
    const duration = num(success.executionTime);
    const failed = exitCode !== undefined && exitCode !== 0;
    return {
      summary: summarize(str(success.stdout) || str(success.interleavedOutput) || str(success.content) || (failed ? str(success.stderr) : undefined)) ?? (exitCode !== undefined ? `exit ${exitCode}` : undefined),
      ...(failed ? { isError: true } : {}),
      ...(duration !== undefined ? { durationMs: duration } : {}),
    };
  }
  for (const key of ['error', 'failure', 'rejected']) {
    const value = result[key];
    if (value === undefined) continue;
    const text = isObject(value) ? (str(value.message) ?? str(value.error) ?? str(value.stderr) ?? argsText(value)) : str(value);
    return { summary: summarize(text) ?? key, isError: true };
  }
  return {};
}

/**
 * Cursor CLI `cursor-agent --print --output-format stream-json` events (seen: February 2026,
 * model "Auto"). The stream is Claude's stream-json shape (see {@link claudeStreamJson}: `system`
 * `init`, `user`, `assistant`, `result`) plus:
 *
 * - `timestamp_ms` (epoch ms) on `tool_call` and some `assistant` events: the event's time.
 * - `tool_call` `started` / `completed` events, matched by `call_id`; the tool is the one key of
 *   `tool_call` (`shellToolCall` → `shell`) with its `args`; the result's non-zero `exitCode`, or an
 *   `error` / `failure` / `rejected` result, is an error; `executionTime` is the call's duration.
 * - Assistant messages carry no id, and `result.result` is every assistant text glued together, so
 *   the run completes with the streamed texts (one paragraph each) instead of `result`.
 */
export function cursorStreamJson(b: RunBuilder): Converter {
  const claude = claudeStreamJson(b);
  let texts: string[] = [];

  function toolCall(value: Json): void {
    const callId = str(value.call_id);
    const tool = toolOf(value.tool_call);
    if (!callId || !tool) {
      b.error(`tool_call event without ${callId ? 'a tool' : 'a call_id'}`);
      return;
    }
    if (value.subtype === 'started') {
      b.modelOutput();
      b.toolStarted(callId, tool.name, argsText(tool.body.args ?? {}));
    } else if (value.subtype === 'completed') {
      b.inputArrived();
      b.toolFinished(callId, cursorResult(tool.body.result));
    }
  }

  return {
    record(value: unknown, at: number | undefined): void {
      if (!isObject(value)) return;
      const own = num(value.timestamp_ms);
      b.tick(own ?? at);
      switch (value.type) {
        case 'tool_call':
          toolCall(value);
          return;
        case 'system':
          if (value.subtype === 'init') texts = [];
          break;
        case 'assistant': {
          const message = isObject(value.message) ? value.message : {};
          const content = Array.isArray(message.content) ? message.content : [];
          for (const block of content) if (isObject(block) && block.type === 'text' && str(block.text)?.trim()) texts.push(block.text as string);
          break;
        }
        case 'result':
          if (value.subtype === 'success' && value.is_error !== true) {
            claude.record({ ...value, result: texts.join('\n\n') }, own ?? at);
            texts = [];
            return;
          }
          break;
        default:
          break;
      }
      claude.record(value, own ?? at);
    },
    end(): void {
      claude.end();
    },
  };
}
