import type { Logger } from '../index.js';

/** One line a {@link RecordingLogger} kept. */
export interface LogEntry {
  readonly level: 'debug' | 'warn' | 'error';
  readonly message: string;
  readonly fields?: Record<string, unknown>;
}

/** A logger that keeps every line, to check what was reported (and that no secret was). */
export interface RecordingLogger extends Logger {
  /** Every line, oldest first. */
  readonly entries: LogEntry[];
  /** Every line as text: `<level> <message> <fields as JSON>`, for substring checks. */
  readonly lines: string[];
  /** The entries of one level. */
  at(level: LogEntry['level']): LogEntry[];
}

/** A {@link RecordingLogger}, empty. */
export function recordingLogger(): RecordingLogger {
  const entries: LogEntry[] = [];
  const lines: string[] = [];
  const keep = (level: LogEntry['level']) => (message: string, fields?: Record<string, unknown>) => {
    entries.push(fields === undefined ? { level, message } : { level, message, fields });
    lines.push(`${level} ${message} ${fields ? JSON.stringify(fields) : ''}`.trimEnd());
  };
  return { entries, lines, debug: keep('debug'), warn: keep('warn'), error: keep('error'), at: (level) => entries.filter((e) => e.level === level) };
}
