import { Lexer, type Token, type Tokens } from 'marked';
import { alignedTableLines, codePointLength } from '@progresscard/core/plugin';
import { richText } from './agent-blocks.js';
import type { SlackTableBlock } from './payload.js';

/** One table as rows of cell texts, the header first. */
function rowsOf(table: Tokens.Table): string[][] {
  const text = (cell: Tokens.TableCell) => cell.text.replace(/\s+/g, ' ').trim();
  return [table.header.map(text), ...table.rows.map((row) => row.map(text))];
}

/** The table as the kit's aligned preformatted block (columns padded in display columns, rows capped with a notice). */
function alignedBlock(table: Tokens.Table): string {
  const [header = [], ...rows] = rowsOf(table);
  return ['```', ...alignedTableLines({ header, align: table.align.map((align) => align ?? undefined), rows }), '```'].join('\n');
}

/**
 * Agent markdown with every top-level GFM pipe table (found by the `marked` lexer) turned into an
 * aligned preformatted block (Slack mrkdwn has no tables, so the pipes and the `|---|` row would
 * show raw: https://api.slack.com/reference/surfaces/formatting). Tables inside lists, quotes or
 * code fences are left as they are.
 */
export function tablesAsPreformatted(markdown: string): string {
  if (!markdown.includes('|')) return markdown;
  return withTablesAligned(markdown, topLevelTables(markdown));
}

/** The top-level GFM tables of `markdown`, in order (one `marked` lexer pass). */
const topLevelTables = (markdown: string): Tokens.Table[] => new Lexer({ gfm: true }).lex(markdown).filter((token: Token): token is Tokens.Table => token.type === 'table');

/** `markdown` with `tables` (lexed from it, in order) replaced by aligned preformatted blocks. */
function withTablesAligned(markdown: string, tables: readonly Tokens.Table[]): string {
  let out = '';
  let rest = markdown;
  for (const table of tables) {
    const raw = table.raw.replace(/\n+$/, '');
    const at = rest.indexOf(raw);
    if (at < 0) continue;
    out += rest.slice(0, at) + alignedBlock(table);
    rest = rest.slice(at + raw.length);
  }
  return out + rest;
}

/** Limits a table must keep to be drawn as a `table` block (see `SlackLimits`). */
export interface TableBlockLimits {
  readonly maxTableRows: number;
  readonly maxTableColumns: number;
  /** Code points of all cells together (the plugin keeps a table within one section's share of the message). */
  readonly maxChars: number;
}

/** The answer around its native table: the text before and after (their other tables preformatted) and the `table` block. */
export interface AnswerWithTable {
  readonly before: string;
  readonly table: SlackTableBlock;
  readonly after: string;
}

const ALIGN = { left: 'left', center: 'center', right: 'right' } as const;

/** The table as a `table` block (cells as `rich_text`, alignment from the `|:--:|` row), or undefined when it does not fit. */
function tableBlock(table: Tokens.Table, limits: TableBlockLimits): SlackTableBlock | undefined {
  const rows = rowsOf(table);
  const columns = Math.max(...rows.map((row) => row.length));
  const chars = rows.reduce((sum, row) => sum + row.reduce((n, cell) => n + codePointLength(cell), 0), 0);
  if (rows.length > limits.maxTableRows || columns > limits.maxTableColumns || chars > limits.maxChars) return undefined;
  const aligned = table.align.slice(0, columns).map((align) => (align ? { align: ALIGN[align] } : {}));
  return {
    type: 'table',
    block_id: 'answer_table',
    // Every row as wide as the widest (a short row is padded), an empty cell as a space: Slack refuses empty text.
    rows: rows.map((row) => Array.from({ length: columns }, (_, c) => richText([row[c] || ' ']))),
    ...(aligned.some((setting) => 'align' in setting) ? { column_settings: aligned } : {}),
  };
}

/**
 * The answer's first top-level GFM table that fits a `table` block
 * (https://docs.slack.dev/reference/block-kit/blocks/table-block), with the text before and after
 * it; every other table is an aligned preformatted block ({@link tablesAsPreformatted}), since Slack
 * takes one table per message (third-party reports; see `SlackLimits`). Undefined when no table fits.
 */
export function splitAtNativeTable(markdown: string, limits: TableBlockLimits): AnswerWithTable | undefined {
  if (!markdown.includes('|')) return undefined;
  const tables = topLevelTables(markdown);
  for (const [i, table] of tables.entries()) {
    const block = tableBlock(table, limits);
    if (!block) continue;
    const raw = table.raw.replace(/\n+$/, '');
    const at = markdown.indexOf(raw);
    if (at < 0) continue;
    // The tables around it come from the same lexer pass (lexing each side again doubled the cost).
    const before = withTablesAligned(markdown.slice(0, at), tables.slice(0, i)).trimEnd();
    const after = withTablesAligned(markdown.slice(at + raw.length), tables.slice(i + 1)).replace(/^\s*\n/, '');
    return { before, table: block, after };
  }
  return undefined;
}
