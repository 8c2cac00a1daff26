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

/** Options of {@link recordingLogger}. */
export interface RecordingLoggerOptions {
  /**
   * The levels kept (default all three). `['warn', 'error']` keeps what an operator reads: debug
   * lines are tracing, and a test counting "one error for the channel" should not count them.
   */
  readonly levels?: readonly LogEntry['level'][];
}

/** A {@link RecordingLogger}, empty. */
export function recordingLogger(options: RecordingLoggerOptions = {}): RecordingLogger {
  const kept = new Set<LogEntry['level']>(options.levels ?? ['debug', 'warn', 'error']);
  const entries: LogEntry[] = [];
  const lines: string[] = [];
  const keep = (level: LogEntry['level']) => (message: string, fields?: Record<string, unknown>) => {
    if (!kept.has(level)) return;
    entries.push(fields === undefined ? { level, message } : { level, message, fields });
    lines.push(`${level} ${message} ${fields ? JSON.stringify(fields) : ''}`.trimEnd());
  };
  return { entries, lines, debug: keep('debug'), warn: keep('warn'), error: keep('error'), at: (level) => entries.filter((e) => e.level === level) };
}
