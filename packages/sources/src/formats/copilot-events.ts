import type { RunBuilder } from '../run-builder.js';
import { argsText, isObject, num, parseTime, str, summarize, titleFrom, type Json } from '../text.js';
import type { Converter } from './converter.js';

/** The text of a Copilot tool result: `result.content`, or the error's message. */
function resultText(data: Json): string | undefined {
  const result = isObject(data.result) ? data.result : undefined;
  const error = isObject(data.error) ? str(data.error.message) : str(data.error);
  const content = str(result?.content);
  // Web searches answer with `{"type":"output_text","text":{"value":"…"}}` as text.
  if (content?.startsWith('{"type":"output_text"')) {
    try {
      const parsed = JSON.parse(content) as unknown;
      const text = isObject(parsed) && isObject(parsed.text) ? str(parsed.text.value) : undefined;
      if (text) return text;
    } catch {
      // not JSON after all
    }
  }
  return error ?? content;
}

/**
 * GitHub Copilot CLI session events (`~/.copilot/session-state/<id>/events.jsonl`; seen: 1.0.34).
 * Every record is `{type, data, id, timestamp, parentId}`.
 *
 * - Runs: a `user.message` with `content` starts a run (title: its first line) and ends the one
 *   before. A `user.message` with empty `content` is the CLI's own nudge ("You have not yet marked
 *   the task as complete…", only in `transformedContent`) and starts nothing.
 * - `session.model_change` sets the model. `assistant.turn_start` opens a round.
 * - `assistant.message`: `reasoningText` → thinking, `content` → answer, `outputTokens` → usage.
 *   Its `toolRequests` are announced again by `tool.execution_start`, which starts the call.
 * - `tool.execution_complete` finishes it: `success: false` is an error; the summary is the first
 *   line of `result.content` (a web search's `output_text` JSON is unwrapped).
 * - `session.task_complete` completes the run with its `summary` as the answer; `session.error`
 *   fails it; `abort` cancels it. Without these, the run ends as the trace suggests.
 */
export function copilotEvents(b: RunBuilder): Converter {
  let answer: string | undefined;

  function assistantMessage(data: Json): void {
    const key = str(data.messageId) ?? `line ${b.line}`;
    b.modelOutput();
    b.thinking(str(data.reasoningText) ?? '');
    const text = str(data.content) ?? '';
    if (text.trim()) {
      answer = text;
      b.answer(text, key);
    }
    const output = num(data.outputTokens);
    if (output !== undefined) b.usage({ outputTokens: output });
  }

  return {
    record(value: unknown): void {
      if (!isObject(value)) return;
      b.tick(parseTime(value.timestamp));
      const data = isObject(value.data) ? value.data : {};
      switch (value.type) {
        case 'session.model_change':
          b.setModel(str(data.newModel));
          return;
        case 'user.message': {
          b.inputArrived();
          const content = str(data.content) ?? '';
          if (!content.trim()) return;
          b.endRun();
          answer = undefined;
          b.prompt(titleFrom(content));
          return;
        }
        case 'assistant.turn_start':
          b.inputArrived();
          b.modelOutput();
          return;
        case 'assistant.message':
          assistantMessage(data);
          return;
        case 'tool.execution_start': {
          const callId = str(data.toolCallId);
          const name = str(data.toolName);
          if (!callId || !name) {
            b.error(`tool.execution_start without ${callId ? 'a toolName' : 'a toolCallId'}`);
            return;
          }
          b.modelOutput();
          b.toolStarted(callId, name, argsText(data.arguments ?? {}));
          return;
        }
        case 'tool.execution_complete': {
          const callId = str(data.toolCallId);
          if (!callId) {
            b.error('tool.execution_complete without a toolCallId');
            return;
          }
          b.inputArrived();
          b.toolFinished(callId, { summary: summarize(resultText(data)), isError: data.success === false });
          return;
        }
        case 'session.task_complete':
          b.complete(str(data.summary) ?? answer);
          return;
        case 'session.error':
          b.fail(str(data.message) ?? str(data.errorType) ?? 'session error');
          return;
        case 'abort':
          b.cancel(str(data.reason) ?? 'aborted');
          return;
        default:
          return;
      }
    },
    end(): void {
      b.finish();
    },
  };
}
