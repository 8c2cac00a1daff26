import { oneLine } from '@progresscard/core/plugin';

/** A JSON record read from a trace, or why a record could not be read. */
export type Framed =
  | {
      readonly line: number;
      readonly value: unknown;
      /** Time from a log prefix (epoch ms), when the format has prefixes. */
      readonly at?: number;
    }
  | { readonly line: number; readonly error: string }
  /** A line of the agent's own log (not a record) that tells the time, epoch ms. */
  | { readonly line: number; readonly time: number };

/** Cuts a trace's lines into JSON records, line by line. */
export interface Framer {
  /** Takes the next line (its 1-based number) and returns the records it completes. */
  push(line: string, lineNo: number): Framed[];
  /** End of input: returns what is left (e.g. an error for an unfinished record). */
  end(): Framed[];
}

/** A short quote of a bad line for an error message. */
function quote(text: string, max = 60): string {
  return JSON.stringify(oneLine(text, max));
}

/** Parses one JSON object; the error names the problem and quotes the text. */
export function parseObject(text: string, line: number, at?: number): Framed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { line, error: `invalid JSON (${(error as Error).message}): ${quote(text)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { line, error: `expected a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}: ${quote(text)}` };
  }
  return at === undefined ? { line, value } : { line, value, at };
}
