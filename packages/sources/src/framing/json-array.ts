import type { Framed, Framer } from './framer.js';

/** Longest JSON array document read, in characters (a trajectory of a long session stays far below). */
const MAX_DOCUMENT_CHARS = 64 * 1024 * 1024;

/**
 * One JSON array document (pretty-printed over many lines, e.g. an OpenHands trajectory): the lines
 * are collected and, at the end, each element of the array is one record (its line: the document's
 * first line). A document that does not parse, or is not an array, is one error.
 */
export function jsonArrayFramer(): Framer {
  const parts: string[] = [];
  let size = 0;
  let tooLong = false;
  return {
    push(line: string): Framed[] {
      if (tooLong) return [];
      size += line.length + 1;
      if (size > MAX_DOCUMENT_CHARS) {
        tooLong = true;
        parts.length = 0;
        return [{ line: 1, error: `JSON document longer than ${MAX_DOCUMENT_CHARS} characters; skipped` }];
      }
      parts.push(line);
      return [];
    },
    end(): Framed[] {
      if (tooLong || parts.join('').trim() === '') return [];
      let value: unknown;
      try {
        value = JSON.parse(parts.join('\n'));
      } catch (error) {
        return [{ line: 1, error: `not a JSON document: ${(error as Error).message}` }];
      }
      if (!Array.isArray(value)) return [{ line: 1, error: 'expected a JSON array of events' }];
      return value.map((element) => ({ line: 1, value: element }));
    },
  };
}
