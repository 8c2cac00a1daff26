import { logFramer } from './framing/log.js';
import { isObject } from './text.js';
import type { TraceFormat } from './types.js';

/** Most lines {@link readTrace} looks at to detect a format (wrapper logs may open with hundreds of their own lines). */
export const DETECT_MAX_LINES = 5000;

const CODEX_ROLLOUT_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
const CLAUDE_TRANSCRIPT_TYPES = new Set(['user', 'assistant', 'system', 'summary', 'progress', 'file-history-snapshot', 'queue-operation']);
const COPILOT_TYPES = /^(session|user|assistant|tool|system)\.[a-z_]+$/;
const OPENCODE_TYPES = new Set(['step_start', 'step_finish', 'tool_use', 'text', 'reasoning', 'error']);

/**
 * Cursor's stream-json: `tool_call` events, `model_call_id` / `timestamp_ms` fields, or an `init`
 * without the tool list Claude Code's `init` always carries.
 */
function isCursorRecord(value: Record<string, unknown>): boolean {
  if (value.type === 'tool_call' || 'model_call_id' in value || 'timestamp_ms' in value) return true;
  return value.type === 'system' && value.subtype === 'init' && !('tools' in value) && 'apiKeySource' in value;
}
const GEMINI_RECORD_TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);

/**
 * The format one JSON record belongs to, or undefined when the record does not tell:
 * Codex rollout records wrap a `payload`; `codex exec` events are `thread.*` / `turn.*` / `item.*`;
 * Claude `stream-json` events carry `session_id` (snake case); Claude transcript lines carry
 * `sessionId` and `uuid`; Gemini chat records are its header (`projectHash`), `$set` updates, or
 * `{id, timestamp, type: user|gemini|info…}` without Claude's `message`, or one document with a
 * `messages` array (the older single-JSON recording); Copilot CLI events are `{type: 'session.*' |
 * 'tool.*'…, data, timestamp}`; OpenCode events carry `sessionID` (camel case, capital ID) and a
 * `part`; Cursor's stream-json is Claude's plus `tool_call` events and `timestamp_ms`.
 */
export function classifyRecord(value: unknown): TraceFormat | undefined {
  if (!isObject(value)) return undefined;
  const type = typeof value.type === 'string' ? value.type : undefined;
  if (type && CODEX_ROLLOUT_TYPES.has(type) && 'payload' in value) return 'codex-rollout';
  if (type && /^(thread|turn|item)\./.test(type)) return 'codex-exec';
  if ('projectHash' in value && Array.isArray(value.messages)) return 'gemini-chat-json';
  if ('projectHash' in value || '$set' in value || type === 'gemini') return 'gemini-chat';
  if (type && COPILOT_TYPES.test(type) && isObject(value.data) && 'timestamp' in value) return 'copilot-events';
  if (type && OPENCODE_TYPES.has(type) && 'sessionID' in value && ('part' in value || 'error' in value)) return 'opencode-json';
  if (type && 'session_id' in value && isCursorRecord(value)) return 'cursor-stream-json';
  if (type && 'session_id' in value) return 'claude-stream-json';
  if (type && CLAUDE_TRANSCRIPT_TYPES.has(type) && ('sessionId' in value || 'uuid' in value || type === 'file-history-snapshot' || 'leafUuid' in value)) {
    return 'claude-transcript';
  }
  if (type && GEMINI_RECORD_TYPES.has(type) && typeof value.id === 'string' && 'timestamp' in value && !('message' in value)) return 'gemini-chat';
  return undefined;
}

/**
 * Detects a format incrementally: feed lines with {@link FormatDetector.push} until it returns a
 * format. Records are cut as wrapper logs are (prefixes, pretty-printed JSON), which also covers JSONL.
 */
export class FormatDetector {
  private readonly framer = logFramer();
  private lineNo = 0;
  /** True when the trace opens with `[`: one JSON array document (an OpenHands trajectory). */
  private arrayDocument: boolean | undefined;

  /** Takes the next line; returns the format once a record gives it away. */
  push(line: string): TraceFormat | undefined {
    this.lineNo += 1;
    if (this.arrayDocument === undefined && line.trim()) this.arrayDocument = line.trim().startsWith('[');
    // An array's events sit indented inside it, so records are not cut: OpenHands events name an
    // `action` or an `observation` (each `"action": "run"` / `"observation": "agent_state_changed"`).
    if (this.arrayDocument && /^\s*"(?:action|observation)":\s*"/.test(line)) return 'openhands-trajectory';
    for (const record of this.framer.push(line, this.lineNo)) {
      const format = 'value' in record ? classifyRecord(record.value) : undefined;
      if (format) return format;
    }
    return undefined;
  }
}

/**
 * The format of a trace, from its first lines (up to {@link DETECT_MAX_LINES}): the format of the
 * first record that gives it away. Undefined when none does.
 */
export function detectFormat(lines: Iterable<string>): TraceFormat | undefined {
  const detector = new FormatDetector();
  let count = 0;
  for (const line of lines) {
    const format = detector.push(line);
    if (format) return format;
    if (++count >= DETECT_MAX_LINES) break;
  }
  return undefined;
}
