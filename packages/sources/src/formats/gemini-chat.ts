import type { RunBuilder } from '../run-builder.js';
import { argsText, isObject, num, parseTime, str, summarize, titleFrom, type Json } from '../text.js';
import type { Converter } from './converter.js';

/** Tool-call statuses after which a Gemini call has its result. */
const DONE = new Set(['success', 'error', 'cancelled']);

/** The text parts of a Gemini `content` (a string or an array of `{text}` parts). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isObject(part) ? (str(part.text) ?? '') : '')).join('');
}

/** True when a user record only carries tool responses back to the model (e.g. "System: Please continue."). */
function isContinuation(record: Json): boolean {
  const display = Array.isArray(record.displayContent) ? record.displayContent : undefined;
  return display !== undefined && display.length > 0 && display.every((part) => isObject(part) && 'functionResponse' in part);
}

/** The output (or error) text of a Gemini tool call's result. */
function callResult(call: Json): string | undefined {
  const results = Array.isArray(call.result) ? call.result : [];
  for (const part of results) {
    const response = isObject(part) && isObject(part.functionResponse) ? part.functionResponse.response : undefined;
    if (isObject(response)) return str(response.error) ?? str(response.output) ?? argsText(response);
  }
  return typeof call.resultDisplay === 'string' ? call.resultDisplay : undefined;
}

/**
 * Gemini CLI chat recordings (JSONL): a header line (`sessionId`, `projectHash`…), message records
 * `{id, timestamp, type, content…}` and `{"$set": …}` updates (skipped).
 *
 * - Runs: a `user` record starts a run and ends the one before, except a record that only returns
 *   tool responses (`displayContent` of `functionResponse` parts, e.g. "System: Please continue.").
 *   The title is its `displayContent` text (e.g. `/init`) or else its content.
 * - A `gemini` record is one model message and one round. The same id is written again when its
 *   tool calls complete; each write only adds what is new: thoughts (at their own timestamps, as
 *   `subject` + description), text, tool calls (started at the message's time, finished at the
 *   call's `timestamp` once its status is success / error / cancelled; error and cancelled are errors).
 * - Usage once per message id: input tokens (cached included), output + thought tokens, `total` as
 *   context; the window is not recorded.
 * - An `info` record "Request cancelled." cancels the run; an `error` record fails it.
 */
export function geminiChat(b: RunBuilder): Converter {
  let messageId: string | undefined;
  let thoughtsSent = 0;
  let textSent = '';
  let usageSent = false;
  const callsSeen = new Set<string>();

  function gemini(record: Json): void {
    const id = str(record.id) ?? `line ${b.line}`;
    if (id !== messageId) {
      messageId = id;
      thoughtsSent = 0;
      textSent = '';
      usageSent = false;
    }
    b.setModel(str(record.model));
    const thoughts = Array.isArray(record.thoughts) ? record.thoughts.filter(isObject) : [];
    const messageAt = parseTime(record.timestamp);
    b.tick(parseTime(thoughts[thoughtsSent]?.timestamp) ?? messageAt);
    b.modelOutput(id);
    for (; thoughtsSent < thoughts.length; thoughtsSent++) {
      const thought = thoughts[thoughtsSent]!;
      b.tick(parseTime(thought.timestamp));
      const subject = str(thought.subject);
      const description = str(thought.description) ?? '';
      b.thinking(subject ? `${subject}\n${description}` : description);
    }
    b.tick(messageAt);
    const text = textOf(record.content);
    if (text.startsWith(textSent) && text.length > textSent.length) {
      b.answer(text.slice(textSent.length), id);
      textSent = text;
    }
    const calls = Array.isArray(record.toolCalls) ? record.toolCalls.filter(isObject) : [];
    for (const call of calls) {
      const callId = str(call.id);
      const name = str(call.name);
      if (!callId || !name) {
        b.error(`tool call without ${callId ? 'a name' : 'an id'}`);
        continue;
      }
      if (!callsSeen.has(callId)) {
        callsSeen.add(callId);
        b.toolStarted(callId, name, argsText(call.args ?? {}));
      }
    }
    for (const call of calls) {
      const callId = str(call.id);
      const status = str(call.status) ?? '';
      if (!callId || !DONE.has(status)) continue;
      b.tick(parseTime(call.timestamp));
      b.toolFinished(callId, { summary: summarize(callResult(call)), isError: status !== 'success' });
    }
    const tokens = isObject(record.tokens) ? record.tokens : undefined;
    if (tokens && !usageSent) {
      usageSent = true;
      const output = (num(tokens.output) ?? 0) + (num(tokens.thoughts) ?? 0);
      b.usage({ inputTokens: num(tokens.input), outputTokens: output, contextTokens: num(tokens.total), model: str(record.model) });
    }
  }

  return {
    record(value: unknown): void {
      if (!isObject(value) || '$set' in value) return;
      switch (value.type) {
        case 'user':
          b.tick(parseTime(value.timestamp));
          b.inputArrived();
          if (isContinuation(value)) return;
          b.endRun();
          callsSeen.clear();
          b.prompt(titleFrom(textOf(value.displayContent) || textOf(value.content)));
          return;
        case 'gemini':
          gemini(value);
          return;
        case 'info':
          b.tick(parseTime(value.timestamp));
          if (/request cancelled/i.test(textOf(value.content))) b.cancel(textOf(value.content));
          return;
        case 'error':
          b.tick(parseTime(value.timestamp));
          b.fail(textOf(value.content) || 'error');
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
