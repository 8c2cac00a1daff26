import { parseTime } from '../text.js';
import { parseObject, type Framed, type Framer } from './framer.js';

/**
 * A log prefix `[2025-11-05T05:28:05.809Z] [INFO] ` (level optional), as wrapper programs write
 * before each line they log. Exactly one space after it belongs to the prefix.
 */
const PREFIX = /^\[(\d{4}-\d{2}-\d{2}T[0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)\](?: \[[A-Za-z]+\])? ?/;

/**
 * A line of the agent's own log that starts with its time: Rust `tracing` lines as Codex writes
 * them (`2025-11-01T14:44:29.634123Z  INFO codex_exec: …`) and `codex exec`'s human output
 * (`[2025-11-01T14:44:29] tokens used: 1234`, seconds, no level).
 */
const AGENT_LOG_TIME = /^(?:(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\s+(?:TRACE|DEBUG|INFO|WARN|ERROR)\s|\[(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:?\d{2})?)\] [^[{])/;

/** Longest record kept while waiting for its closing brace, in characters. */
const MAX_RECORD_CHARS = 32 * 1024 * 1024;

/** A log line split into its prefix time (epoch ms) and content. */
interface LogLine {
  readonly at: number | undefined;
  readonly prefixed: boolean;
  readonly content: string;
}

/** Splits off an optional `[ISO time] [LEVEL] ` prefix. */
function splitPrefix(line: string): LogLine {
  const match = PREFIX.exec(line);
  if (!match) return { at: undefined, prefixed: false, content: line };
  return { at: parseTime(match[1]), prefixed: true, content: line.slice(match[0].length) };
}

/** Tracks brace depth over JSON text, skipping strings, so a record's end is found without parsing. */
class BraceScanner {
  depth = 0;
  private inString = false;
  private escaped = false;

  /** Scans `text`; returns the index just past the closing brace of the record, or -1. */
  scan(text: string): number {
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (ch === 92 /* \ */) this.escaped = true;
        else if (ch === 34 /* " */) this.inString = false;
      } else if (ch === 34) this.inString = true;
      else if (ch === 123 /* { */ || ch === 91 /* [ */) this.depth++;
      else if (ch === 125 /* } */ || ch === 93 /* ] */) {
        this.depth--;
        if (this.depth === 0) return i + 1;
      }
    }
    return -1;
  }
}

interface Pending {
  readonly line: number;
  readonly at: number | undefined;
  readonly parts: string[];
  size: number;
  readonly scanner: BraceScanner;
}

/**
 * Wrapper logs around JSON events (Claude `stream-json`, `codex exec --json`), line by line:
 * - A line whose content (after an optional prefix) starts with `{` begins a record; other lines
 *   are the wrapper's own log and are skipped.
 * - A record may span lines: pretty-printed JSON continues on unprefixed lines (joined with a
 *   newline); a long line the wrapper cut into chunks continues on prefixed lines (joined as is).
 *   The record ends at its closing brace, found by a string-aware brace count.
 * - A record still open when a new one starts at column 0 (or at the end, or past
 *   {@link MAX_RECORD_CHARS}) is an error at its first line.
 * - The record's time is its first line's prefix time; a line without a prefix has none.
 * - A line of the agent's own log that starts with a time (see {@link AGENT_LOG_TIME}) yields that
 *   time, for traces whose events carry none.
 */
export function logFramer(): Framer {
  let pending: Pending | undefined;

  function complete(out: Framed[], record: Pending, text: string, end: number): void {
    record.parts.push(text.slice(0, end));
    out.push(parseObject(record.parts.join(''), record.line, record.at));
    pending = undefined;
  }

  function begin(out: Framed[], content: string, lineNo: number, at: number | undefined): void {
    const record: Pending = { line: lineNo, at, parts: [], size: content.length, scanner: new BraceScanner() };
    const end = record.scanner.scan(content);
    if (end >= 0) complete(out, record, content, end);
    else {
      record.parts.push(content);
      pending = record;
    }
  }

  return {
    push(line: string, lineNo: number): Framed[] {
      const out: Framed[] = [];
      const { at, prefixed, content } = splitPrefix(line);
      if (pending) {
        if (content.startsWith('{')) {
          out.push({ line: pending.line, error: `unterminated JSON record (a new record starts at line ${lineNo})` });
          pending = undefined;
        } else {
          const piece = prefixed ? content : `\n${line}`;
          pending.size += piece.length;
          if (pending.size > MAX_RECORD_CHARS) {
            out.push({ line: pending.line, error: `JSON record longer than ${MAX_RECORD_CHARS} characters; skipped` });
            pending = undefined;
            return out;
          }
          const end = pending.scanner.scan(piece);
          if (end >= 0) complete(out, pending, piece, end);
          else pending.parts.push(piece);
          return out;
        }
      }
      if (content.startsWith('{')) begin(out, content, lineNo, at);
      else {
        const own = AGENT_LOG_TIME.exec(line);
        const time = own ? parseTime(own[1] ?? own[2]) : undefined;
        if (time !== undefined) out.push({ line: lineNo, time });
      }
      return out;
    },
    end(): Framed[] {
      if (!pending) return [];
      const line = pending.line;
      pending = undefined;
      return [{ line, error: 'unterminated JSON record at the end of the trace' }];
    },
  };
}
