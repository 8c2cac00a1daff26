import { alignedTableLines, codePointLength, markdownPieces, tablesAsAligned, type MarkdownPiece, type MarkdownTable } from '@progresscard/core/plugin';
import { richText } from './agent-blocks.js';
import type { SlackTableBlock } from './payload.js';

/**
 * Agent markdown with every GFM pipe table outside code fences (found by the kit's `markdownPieces`,
 * one linear pass over the lines) turned into an aligned preformatted block: Slack mrkdwn has no
 * tables, so the pipes and the `|---|` row would show raw
 * (https://api.slack.com/reference/surfaces/formatting). Tables inside code fences and quotes
 * (`> |…|`) are left as they are.
 */
export function tablesAsPreformatted(markdown: string): string {
  return tablesAsAligned(markdown);
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
function tableBlock(table: MarkdownTable, limits: TableBlockLimits): SlackTableBlock | undefined {
  const rows = [table.header, ...table.rows];
  const columns = table.header.length;
  if (rows.length > limits.maxTableRows || columns > limits.maxTableColumns) return undefined;
  let chars = 0;
  for (const row of rows) for (const cell of row) chars += codePointLength(cell);
  if (chars > limits.maxChars) return undefined;
  const aligned = table.align.slice(0, columns).map((align) => (align ? { align: ALIGN[align] } : {}));
  return {
    type: 'table',
    block_id: 'answer_table',
    // Every row as wide as the header (the kit pads a short row), an empty cell as a space: Slack refuses empty text.
    rows: rows.map((row) => Array.from({ length: columns }, (_, c) => richText([row[c] || ' ']))),
    ...(aligned.some((setting) => 'align' in setting) ? { column_settings: aligned } : {}),
  };
}

/** Pieces back to markdown, their tables as aligned fenced blocks (as {@link tablesAsPreformatted} draws them). */
const joined = (pieces: readonly MarkdownPiece[]): string =>
  pieces.map((piece) => (piece.kind === 'text' ? piece.text : ['```', ...alignedTableLines(piece.table), '```'].join('\n'))).join('\n');

/**
 * The answer's first GFM table outside code fences that fits a `table` block
 * (https://docs.slack.dev/reference/block-kit/blocks/table-block), with the text before and after
 * it; every other table is an aligned preformatted block ({@link tablesAsPreformatted}), since Slack
 * takes one table per message (third-party reports; see `SlackLimits`). Undefined when no table fits.
 * One linear pass over the markdown (the kit's `markdownPieces`), whatever its number of tables.
 */
export function splitAtNativeTable(markdown: string, limits: TableBlockLimits): AnswerWithTable | undefined {
  if (!markdown.includes('|')) return undefined;
  const pieces = markdownPieces(markdown);
  for (const [i, piece] of pieces.entries()) {
    if (piece.kind !== 'table') continue;
    const block = tableBlock(piece.table, limits);
    if (!block) continue;
    return { before: joined(pieces.slice(0, i)).trimEnd(), table: block, after: joined(pieces.slice(i + 1)).replace(/^\s*\n/, '') };
  }
  return undefined;
}
