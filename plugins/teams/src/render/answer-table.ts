import { type AlignedTableLimits, alignedTableLines, type MarkdownTable, markdownPieces } from '@progresscard/core/plugin';
import type { AdaptiveElement, AdaptiveTable } from './payload.js';

/** Body rows a card's `Table` shows; the rest are counted in a notice under it. */
const MAX_TABLE_ROWS = 40;

const ALIGNMENT = { left: 'Left', center: 'Center', right: 'Right' } as const;

/** The table as an Adaptive Card `Table` (https://learn.microsoft.com/en-us/adaptive-cards/schema-explorer/table), `safe` applied to every cell. */
function tableElement(table: MarkdownTable, safe: (text: string) => string): AdaptiveTable {
  const cell = (value: string, header: boolean) => ({ type: 'TableCell' as const, items: [{ type: 'TextBlock' as const, text: safe(value) || ' ', wrap: true, ...(header ? { weight: 'Bolder' as const } : {}) }] });
  return {
    type: 'Table',
    columns: table.header.map((_, c) => {
      const align = table.align[c];
      return { width: 1, ...(align ? { horizontalCellContentAlignment: ALIGNMENT[align] } : {}) };
    }),
    rows: [table.header, ...table.rows.slice(0, MAX_TABLE_ROWS)].map((row, r) => ({ type: 'TableRow' as const, cells: row.map((value) => cell(value, r === 0)) })),
    firstRowAsHeader: true,
    separator: true,
  };
}

/**
 * The card's share of the answer as body elements: prose as `TextBlock`s (`text` builds them), each GFM
 * table as a `Table` element (schema 1.5; Teams' TextBlock markdown has no tables) with a notice when
 * rows were left out.
 */
export function answerElements(answer: string, safe: (text: string) => string, text: (value: string, subtle?: boolean) => AdaptiveElement, limits: AlignedTableLimits): AdaptiveElement[] {
  const pieces = answer.includes('|') ? markdownPieces(answer) : [{ kind: 'text' as const, text: answer }];
  const out: AdaptiveElement[] = [];
  for (const piece of pieces) {
    if (piece.kind === 'text') {
      if (piece.text.trim() !== '') out.push(text(safe(piece.text.trim())));
    } else {
      out.push(tableElement(piece.table, safe));
      const hidden = piece.table.rows.length - MAX_TABLE_ROWS;
      // The notice line of the aligned block, so its wording is the same in every channel.
      if (hidden > 0) out.push(text(alignedTableLines(piece.table, { ...limits, maxRows: MAX_TABLE_ROWS }).at(-1)!, true));
    }
  }
  return out;
}
