import type { Locale } from '../../card/view.js';

/**
 * GFM pipe tables (https://github.github.com/gfm/#tables-extension-) in agent markdown, for channels
 * whose markup has no tables (Telegram HTML, Discord and WeCom markdown, Teams text): found outside
 * code fences and drawn as an aligned monospace block, columns padded to their widest cell in display
 * columns (a CJK or fullwidth character takes two).
 */

/** Column alignment from the delimiter row (`:--` left, `:-:` center, `--:` right; none when unmarked). */
export type TableAlign = 'left' | 'center' | 'right' | undefined;

/** One GFM table: the header cells, the alignments, the body rows (each as wide as the header). */
export interface MarkdownTable {
  readonly header: readonly string[];
  readonly align: readonly TableAlign[];
  readonly rows: readonly (readonly string[])[];
}

/** A piece of markdown: prose (code fences included, as written) or a table. */
export type MarkdownPiece = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'table'; readonly table: MarkdownTable };

/** Caps for an aligned table: the most body rows, and the most display columns of one cell. */
export interface AlignedTableLimits {
  /** Body rows shown; the rest are counted in a notice line under the table. Default 40. */
  readonly maxRows?: number;
  /** Display columns of one cell; a longer cell is cut with `…`. Default 40. */
  readonly maxCellWidth?: number;
  /** Language of the "more rows" notice. Default `en`. */
  readonly locale?: Locale;
}

const DEFAULT_MAX_ROWS = 40;
const DEFAULT_MAX_CELL_WIDTH = 40;

const MORE_ROWS: Readonly<Record<Locale, (count: number) => string>> = {
  'zh-CN': (count) => `…（表格另有 ${count} 行未显示）`,
  en: (count) => `… (${count} more table row${count === 1 ? '' : 's'} not shown)`,
};

/** True for a code point drawn two columns wide in a monospace font (East Asian Wide / Fullwidth, emoji). */
function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0x303e) ||
    (code >= 0x3041 && code <= 0x33ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xa000 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1f64f) ||
    (code >= 0x1f900 && code <= 0x1f9ff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/** True for a code point that takes no column (combining marks, zero-width joiners and spaces, variation selectors). */
function isZeroWidth(code: number): boolean {
  return (code >= 0x0300 && code <= 0x036f) || (code >= 0x200b && code <= 0x200f) || (code >= 0xfe00 && code <= 0xfe0f);
}

/** Columns `text` takes in a monospace font: CJK and fullwidth characters count 2, combining marks 0, others 1. */
export function displayWidth(text: string): number {
  // Printable ASCII, the common case, is one column a character.
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    width += isZeroWidth(code) ? 0 : isWide(code) ? 2 : 1;
  }
  return width;
}

/** The start of `text` within `maxWidth` display columns, `…` included when cut. */
function cutToWidth(text: string, maxWidth: number): string {
  // A UTF-16 unit takes at most two columns: a cell of at most half the width in units fits.
  if (text.length <= maxWidth / 2 || displayWidth(text) <= maxWidth) return text;
  let out = '';
  let width = 0;
  for (const char of text) {
    const w = displayWidth(char);
    if (width + w > maxWidth - 1) break;
    out += char;
    width += w;
  }
  return `${out}…`;
}

/** The cells of one table line: split at pipes that are neither escaped (`\|`) nor inside a code span; outer pipes dropped. */
export function splitTableRow(line: string): string[] {
  const text = line.trim();
  // No escapes and no code spans: every pipe splits.
  if (!/[\\`]/.test(text)) return trimCells(text.split('|'), text);
  const cells: string[] = [];
  let cell = '';
  let tick = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\' && text[i + 1] === '|') {
      cell += '|';
      i += 1;
    } else if (char === '`') {
      let run = 1;
      while (text[i + run] === '`') run += 1;
      if (tick === 0) tick = run;
      else if (tick === run) tick = 0;
      cell += '`'.repeat(run);
      i += run - 1;
    } else if (char === '|' && tick === 0) {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell);
  return trimCells(cells, text);
}

/** Cells split at pipes without the empty ones an outer pipe leaves, each with its white space collapsed. */
function trimCells(cells: string[], text: string): string[] {
  if (text.startsWith('|')) cells.shift();
  if (text.endsWith('|') && !text.endsWith('\\|') && cells.length > 0) cells.pop();
  return cells.map((value) => value.replace(/\s+/g, ' ').trim());
}

const DELIMITER_CELL = /^:?-+:?$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The alignments of a delimiter row (`|---|:--:|`), or undefined when `line` is not one. */
function delimiterRow(line: string): TableAlign[] | undefined {
  if (!line.includes('-') || !/^[\s|:-]+$/.test(line)) return undefined;
  const cells = splitTableRow(line);
  if (cells.length === 0 || !cells.every((cell) => DELIMITER_CELL.test(cell))) return undefined;
  if (cells.length === 1 && !line.includes('|')) return undefined;
  return cells.map((cell) => (cell.startsWith(':') && cell.endsWith(':') ? 'center' : cell.endsWith(':') ? 'right' : cell.startsWith(':') ? 'left' : undefined));
}

/** A line that can be a table row: it has a pipe, is not indented as code, and is not blank. */
function isRowLine(line: string): boolean {
  return line.includes('|') && line.trim() !== '' && !/^( {4}|\t)/.test(line);
}

/**
 * Markdown cut into prose and GFM tables, in order: a table is a header row, a delimiter row with
 * as many cells (`|---|:--:|`), and the rows under it up to a blank line or a line without a pipe.
 * Cells split at unescaped pipes outside code spans; a short row is padded with empty cells and a
 * long one cut to the header's width. Tables inside code fences stay prose.
 */
export function markdownPieces(markdown: string): MarkdownPiece[] {
  const lines = markdown.split('\n');
  const pieces: MarkdownPiece[] = [];
  let text: string[] = [];
  let fence: string | undefined;
  const flush = () => {
    if (text.length > 0) pieces.push({ kind: 'text', text: text.join('\n') });
    text = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const opens = FENCE.exec(line);
    if (fence !== undefined) {
      if (opens && opens[1]![0] === fence[0] && opens[1]!.length >= fence.length && line.trim() === opens[1]) fence = undefined;
      text.push(line);
      continue;
    }
    if (opens) {
      fence = opens[1]!;
      text.push(line);
      continue;
    }
    const align = isRowLine(line) && i + 1 < lines.length ? delimiterRow(lines[i + 1]!) : undefined;
    const header = align ? splitTableRow(line) : undefined;
    if (!align || !header || header.length !== align.length) {
      text.push(line);
      continue;
    }
    const rows: string[][] = [];
    let next = i + 2;
    while (next < lines.length && isRowLine(lines[next]!) && !FENCE.test(lines[next]!)) {
      const cells = splitTableRow(lines[next]!);
      rows.push(Array.from({ length: header.length }, (_, c) => cells[c] ?? ''));
      next += 1;
    }
    flush();
    pieces.push({ kind: 'table', table: { header, align, rows } });
    i = next - 1;
  }
  flush();
  return pieces;
}

/** `cell` padded with `room` columns of spaces as its column's alignment says (left when unmarked). */
function pad(cell: string, room: number, align: TableAlign): string {
  if (align === 'right') return ' '.repeat(room) + cell;
  if (align === 'center') return ' '.repeat(Math.floor(room / 2)) + cell + ' '.repeat(room - Math.floor(room / 2));
  return cell + ' '.repeat(room);
}

/**
 * The table as aligned monospace lines (no fence): the header, a dash rule, the body rows, columns
 * two spaces apart and padded to their widest cell in display columns. Cells longer than
 * `maxCellWidth` are cut with `…`; rows past `maxRows` are left out and counted in a last notice line.
 */
export function alignedTableLines(table: MarkdownTable, limits: AlignedTableLimits = {}): string[] {
  const maxRows = Math.max(1, limits.maxRows ?? DEFAULT_MAX_ROWS);
  const maxCellWidth = Math.max(2, limits.maxCellWidth ?? DEFAULT_MAX_CELL_WIDTH);
  const shown = [table.header, ...table.rows.slice(0, maxRows)].map((row) => row.map((cell) => cutToWidth(cell, maxCellWidth)));
  // Each cell's width is measured once (a table-heavy answer has thousands of cells).
  const cellWidths = shown.map((row) => row.map(displayWidth));
  let columns = 0;
  for (const row of shown) columns = Math.max(columns, row.length);
  const widths = Array.from({ length: columns }, () => 1);
  for (const row of cellWidths) for (let c = 0; c < row.length; c++) widths[c] = Math.max(widths[c]!, row[c]!);
  const line = (row: readonly string[], r: number) =>
    widths
      .map((width, c) => pad(row[c] ?? '', width - (cellWidths[r]![c] ?? 0), table.align[c]))
      .join('  ')
      .trimEnd();
  const out = [line(shown[0]!, 0), widths.map((width) => '-'.repeat(width)).join('  '), ...shown.slice(1).map((row, r) => line(row, r + 1))];
  const hidden = table.rows.length - (shown.length - 1);
  if (hidden > 0) out.push(MORE_ROWS[limits.locale ?? 'en'](hidden));
  return out;
}

/**
 * Agent markdown with every GFM table outside code fences drawn by `block` (given the aligned lines
 * from {@link alignedTableLines}); by default a fenced code block (three backticks). Markdown without
 * a table comes back unchanged.
 */
export function tablesAsAligned(markdown: string, limits: AlignedTableLimits = {}, block: (lines: readonly string[]) => string = fencedBlock): string {
  if (!markdown.includes('|')) return markdown;
  const pieces = markdownPieces(markdown);
  if (!pieces.some((piece) => piece.kind === 'table')) return markdown;
  return pieces.map((piece) => (piece.kind === 'text' ? piece.text : block(alignedTableLines(piece.table, limits)))).join('\n');
}

function fencedBlock(lines: readonly string[]): string {
  return ['```', ...lines, '```'].join('\n');
}
