import { splitBlocks } from './blocks.js';

const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

function isDelimiterRow(line: string): boolean {
  return line.includes('|') && line.includes('-') && DELIMITER_ROW.test(line);
}

/**
 * The block-quote markers (`> > `) a line starts with: a table inside a quote is still a table to
 * Feishu (and counts towards its limit); a table in a list item is indented, which the rows allow.
 */
const QUOTE_PREFIX = /^\s{0,3}(?:>\s?)+/;

function quotePrefix(line: string): string {
  return QUOTE_PREFIX.exec(line)?.[0] ?? '';
}

/** The line without its quote markers. */
function inner(line: string): string {
  return line.slice(quotePrefix(line).length);
}

/** Whether `line` continues a table whose header had quote markers `prefix`. */
function continuesTable(line: string | undefined, prefix: string): line is string {
  return line !== undefined && quotePrefix(line).replace(/\s/g, '') === prefix.replace(/\s/g, '');
}

/** The fence a quoted line opens or closes (`> ```text`), if any; unquoted fences are split off by `splitBlocks`. */
function quotedFence(line: string): string | undefined {
  if (quotePrefix(line) === '') return undefined;
  return /^\s{0,3}(`{3,}|~{3,})/.exec(inner(line))?.[1];
}

/** Indexes of lines inside code fences within block quotes: their rows are code, not tables. */
function quotedCodeLines(lines: readonly string[]): Set<number> {
  const code = new Set<number>();
  let open: string | undefined;
  lines.forEach((line, index) => {
    const fence = quotedFence(line);
    if (open !== undefined) {
      code.add(index);
      if (fence !== undefined && fence[0] === open[0] && fence.length >= open.length && inner(line).trim() === fence) open = undefined;
    } else if (fence !== undefined) {
      open = fence;
      code.add(index);
    }
  });
  return code;
}

function startsTable(lines: readonly string[], i: number): boolean {
  const header = inner(lines[i]!);
  const delimiter = lines[i + 1];
  return header.includes('|') && !isDelimiterRow(header) && continuesTable(delimiter, quotePrefix(lines[i]!)) && isDelimiterRow(inner(delimiter));
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
 * (4 or more per card have been refused with 230099 / 11310). Tables inside block quotes and list
 * items count too; tables inside code fences are not tables.
 */
export function limitTables(markdown: string, maxTables: number): LimitedTables {
  let kept = 0;
  let converted = 0;
  const out = splitBlocks(markdown).map((block) => {
    if (block.kind === 'fence') return block.text;
    const lines = block.text.split('\n');
    const code = quotedCodeLines(lines);
    const result: string[] = [];
    for (let i = 0; i < lines.length; ) {
      if (code.has(i) || !startsTable(lines, i)) {
        result.push(lines[i]!);
        i += 1;
        continue;
      }
      const prefix = quotePrefix(lines[i]!);
      let end = i + 2;
      while (end < lines.length && continuesTable(lines[end], prefix) && inner(lines[end]!).trim() !== '' && lines[end]!.includes('|')) end += 1;
      const table = lines.slice(i, end);
      if (kept < maxTables) {
        kept += 1;
        result.push(...table);
      } else {
        converted += 1;
        const fence = fenceFor(table);
        // Inside a quote the code block keeps the quote's markers on every line.
        result.push(`${prefix}${fence}text`, ...table, `${prefix}${fence}`);
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
    const code = quotedCodeLines(lines);
    for (let i = 0; i < lines.length; i++) if (!code.has(i) && startsTable(lines, i)) n += 1;
  }
  return n;
}
