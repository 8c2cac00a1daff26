import type { RunBuilder } from '../run-builder.js';
import { isObject } from '../text.js';
import type { Converter } from './converter.js';
import { geminiChat } from './gemini-chat.js';

/**
 * The older Gemini CLI chat recording: one JSON document (usually pretty-printed over many lines)
 * `{sessionId, projectHash, startTime, lastUpdated, messages: [...]}`, as Gemini CLI wrote it
 * before it switched to JSONL (seen: a recording of 2025-10-11, gemini-2.5-pro). Each entry of
 * `messages` is a record of the JSONL format and is converted exactly as {@link geminiChat} does.
 * A document without a `messages` array is an error.
 */
export function geminiChatJson(b: RunBuilder): Converter {
  const records = geminiChat(b);
  return {
    record(value: unknown): void {
      if (!isObject(value)) return;
      if (!Array.isArray(value.messages)) {
        b.error('a Gemini chat document without a messages array');
        return;
      }
      for (const message of value.messages) records.record(message, undefined);
    },
    end(): void {
      records.end();
    },
  };
}
