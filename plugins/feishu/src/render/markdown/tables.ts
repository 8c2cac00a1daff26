import { splitBlocks } from './blocks.js';

const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

function isDelimiterRow(line: string): boolean {
  return line.includes('|') && line.includes('-') && DELIMITER_ROW.test(line);
}

function startsTable(lines: readonly string[], i: number): boolean {
  const header = lines[i]!;
  const delimiter = lines[i + 1];
  return header.includes('|') && !isDelimiterRow(header) && delimiter !== undefined && isDelimiterRow(delimiter);
}

/** Result of {@link limitTables}. */
export interface LimitedTables {
  readonly text: string;
  /** GFM tables left as tables. */
  readonly kept: number;
  /** Tables turned into code blocks. */
  readonly converted: number;
}

/** A fence longer than any backtick run in `lines`. */
function fenceFor(lines: readonly string[]): string {
  const longest = Math.max(2, ...lines.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((m) => m.length))));
  return '`'.repeat(longest + 1);
}

/**
 * Keeps the first `maxTables` GFM tables of `markdown` and turns every later one into a plain
 * code block (same rows, monospace), so a card never carries more tables than Feishu accepts
 * (4 or more per card have been refused with 230099 / 11310). Tables inside code fences are not tables.
 */
export function limitTables(markdown: string, maxTables: number): LimitedTables {
  let kept = 0;
  let converted = 0;
  const out = splitBlocks(markdown).map((block) => {
    if (block.kind === 'fence') return block.text;
    const lines = block.text.split('\n');
    const result: string[] = [];
    for (let i = 0; i < lines.length; ) {
      if (!startsTable(lines, i)) {
        result.push(lines[i]!);
        i += 1;
        continue;
      }
      let end = i + 2;
      while (end < lines.length && lines[end]!.trim() !== '' && lines[end]!.includes('|')) end += 1;
      const table = lines.slice(i, end);
      if (kept < maxTables) {
        kept += 1;
        result.push(...table);
      } else {
        converted += 1;
        const fence = fenceFor(table);
        result.push(`${fence}text`, ...table, fence);
      }
      i = end;
    }
    return result.join('\n');
  });
  return { text: out.join('\n'), kept, converted };
}

/** Number of GFM tables in `markdown` (outside code fences). */
export function countTables(markdown: string): number {
  let n = 0;
  for (const block of splitBlocks(markdown)) {
    if (block.kind === 'fence') continue;
    const lines = block.text.split('\n');
    for (let i = 0; i < lines.length; i++) if (startsTable(lines, i)) n += 1;
  }
  return n;
}
