import { parseObject, type Framed, type Framer } from './framer.js';

/**
 * JSON Lines: one JSON object per line; blank lines are skipped and any other line that is not a
 * JSON object is an error naming its line.
 */
export function jsonlFramer(): Framer {
  return {
    push(line: string, lineNo: number): Framed[] {
      const text = line.trim();
      if (!text) return [];
      return [parseObject(text, lineNo)];
    },
    end: () => [],
  };
}
