import { Lexer, type Token, type Tokens } from 'marked';
import { codePointLength } from '@progresscard/core/plugin';

/** One table as rows of cell texts, the header first. */
function rowsOf(table: Tokens.Table): string[][] {
  const text = (cell: Tokens.TableCell) => cell.text.replace(/\s+/g, ' ').trim();
  return [table.header.map(text), ...table.rows.map((row) => row.map(text))];
}

/** The table as an aligned preformatted block: columns padded to their widest cell, a dash rule under the header. */
function alignedBlock(table: Tokens.Table): string {
  const rows = rowsOf(table);
  const columns = Math.max(...rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, c) => Math.max(1, ...rows.map((row) => codePointLength(row[c] ?? ''))));
  const line = (row: readonly string[]) =>
    widths
      .map((width, c) => {
        const cell = row[c] ?? '';
        return cell + ' '.repeat(width - codePointLength(cell));
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return ['```', line(rows[0]!), rule, ...rows.slice(1).map(line), '```'].join('\n');
}

/**
 * Agent markdown with every top-level GFM pipe table (found by the `marked` lexer) turned into an
 * aligned preformatted block (Slack mrkdwn has no tables, so the pipes and the `|---|` row would
 * show raw: https://api.slack.com/reference/surfaces/formatting). Tables inside lists, quotes or
 * code fences are left as they are.
 */
export function tablesAsPreformatted(markdown: string): string {
  if (!markdown.includes('|')) return markdown;
  const tables = new Lexer({ gfm: true }).lex(markdown).filter((token: Token): token is Tokens.Table => token.type === 'table');
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
