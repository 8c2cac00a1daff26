import type { AgentEvent } from '@progresscard/core';

/** Every trace format this package converts, by name. */
export const TRACE_FORMATS = [
  'claude-transcript',
  'claude-stream-json',
  'codex-rollout',
  'codex-exec',
  'gemini-chat',
  'gemini-chat-json',
  'cursor-stream-json',
  'copilot-events',
  'opencode-json',
  'openhands-trajectory',
] as const;

/**
 * A trace format:
 * - `claude-transcript`: Claude Code session transcript JSONL (`~/.claude/projects/<project>/<session>.jsonl`).
 * - `claude-stream-json`: `claude -p --output-format stream-json` events, one JSON object per line or
 *   pretty-printed, each optionally after a `[ISO time] [LEVEL] ` log prefix.
 * - `codex-rollout`: Codex rollout JSONL (`~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl`).
 * - `codex-exec`: `codex exec --json` events, optionally after a `[ISO time] [LEVEL] ` log prefix.
 * - `gemini-chat`: Gemini CLI chat recording JSONL (header line, message records, `$set` updates).
 * - `gemini-chat-json`: the older Gemini CLI chat recording, one pretty-printed JSON document
 *   `{sessionId, projectHash, startTime, lastUpdated, messages: […]}`.
 * - `cursor-stream-json`: Cursor CLI `cursor-agent --print --output-format stream-json` events
 *   (Claude's stream-json shape plus `tool_call` started/completed events and `timestamp_ms`).
 * - `copilot-events`: GitHub Copilot CLI session `events.jsonl` (`session.*`, `user.message`,
 *   `assistant.*`, `tool.execution_*`).
 * - `opencode-json`: OpenCode `run --format json` events (`step_start`, `tool_use`, `text`,
 *   `step_finish`, `error`), one per line or pretty-printed, optionally after a log prefix.
 * - `openhands-trajectory`: an OpenHands trajectory, one JSON array of `action` / `observation` events.
 */
export type TraceFormat = (typeof TRACE_FORMATS)[number];

/** What each format is, in a few words (used in the "unknown format" error). */
export const FORMAT_LABELS: Readonly<Record<TraceFormat, string>> = {
  'claude-transcript': 'Claude Code session or subagent transcript JSONL',
  'claude-stream-json': 'claude -p --output-format stream-json',
  'codex-rollout': 'Codex rollout JSONL',
  'codex-exec': 'codex exec --json',
  'gemini-chat': 'Gemini CLI chat recording JSONL',
  'gemini-chat-json': 'older Gemini CLI chat recording, one JSON document',
  'cursor-stream-json': 'cursor-agent --output-format stream-json',
  'copilot-events': 'GitHub Copilot CLI events.jsonl',
  'opencode-json': 'OpenCode run --format json',
  'openhands-trajectory': 'OpenHands trajectory, one JSON array of events',
};

/** Languages of the texts a reader writes itself (see {@link ReadTraceOptions.locale}). */
export type TraceLocale = 'zh-CN' | 'en';

/** True when `value` names a {@link TraceFormat}. */
export function isTraceFormat(value: unknown): value is TraceFormat {
  return typeof value === 'string' && (TRACE_FORMATS as readonly string[]).includes(value);
}

/**
 * One converted agent event. `line` is the 1-based line where the record that caused it starts
 * (for events inferred at the end of the trace: the last line). `run` counts the runs of the trace
 * from 1: a trace may hold several runs (a Claude session with several prompts, two `codex exec`
 * turns…), and each run is one card, from its `run.started` to its terminal event.
 */
export interface TraceEventItem {
  readonly kind: 'event';
  readonly line: number;
  readonly run: number;
  readonly event: AgentEvent;
}

/**
 * A record that could not be read or converted. `message` starts with `line N:` and says what was
 * wrong, e.g. `line 12: invalid JSON (Unexpected token 'x' …): {"type":"assistant",x…`. The replay goes on.
 */
export interface TraceErrorItem {
  readonly kind: 'error';
  readonly line: number;
  readonly message: string;
}

/** What {@link readTrace} yields: converted events and, beside them, errors for bad records. */
export type TraceItem = TraceEventItem | TraceErrorItem;

/** Options of {@link readTrace}. */
export interface ReadTraceOptions {
  /** The trace format, or `'auto'` (default) to detect it from the first records. */
  readonly format?: TraceFormat | 'auto';
  /**
   * Longest pause kept between two consecutive events, in ms. A longer gap (a person reading, an
   * approval prompt left open) is shortened to this cap and every later `at` moves back by the
   * difference, so a replay does not sit idle. Default: no cap.
   */
  readonly maxGapMs?: number;
  /**
   * Language of the texts the reader writes itself (an ending it infers, e.g. "the recording ends
   * while Bash runs"): `zh-CN` (default, the card's default language) or `en`. When given, it is
   * also set as `locale` on every `run.started`, so the card speaks the same language.
   */
  readonly locale?: TraceLocale;
  /** Called once with the format in use (the detected one under `'auto'`), before the first item. */
  readonly onFormat?: (format: TraceFormat) => void;
}
