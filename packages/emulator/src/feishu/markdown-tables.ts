/**
 * Counts GFM tables in markdown the way Feishu's card renderer sees them: a row with a `|`
 * followed by a delimiter row (`| --- | :-: |`), outside fenced code blocks, also inside block
 * quotes (`> | a |`) and list items (indented rows); the table limit is per card
 * (https://open.feishu.cn/document/feishu-cards/card-json-v2-components/content-components/rich-text).
 */
const QUOTE_PREFIX = /^\s{0,3}(?:>\s?)+/;
const DELIMITER_ROW = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** Number of GFM tables in `markdown`. */
export function countMarkdownTables(markdown: string): number {
  const lines = markdown.split(/\r?\n/);
  let fence: string | undefined;
  let tables = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // Fences count inside block quotes too (`> ```text`): their rows are code.
    const bare = line.slice(QUOTE_PREFIX.exec(line)?.[0].length ?? 0);
    const fenceMatch = FENCE.exec(bare);
    if (fenceMatch) {
      const marker = fenceMatch[1]!;
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length && bare.trim() === marker) fence = undefined;
      continue;
    }
    if (fence !== undefined || i === 0) continue;
    const quoted = QUOTE_PREFIX.exec(line)?.[0] ?? '';
    const headerQuoted = QUOTE_PREFIX.exec(lines[i - 1]!)?.[0] ?? '';
    if (quoted.replace(/\s/g, '') !== headerQuoted.replace(/\s/g, '')) continue;
    const header = lines[i - 1]!.slice(headerQuoted.length);
    const row = line.slice(quoted.length);
    const isDelimiter = row.includes('|') && DELIMITER_ROW.test(row);
    if (isDelimiter && header.includes('|') && !DELIMITER_ROW.test(header) && !FENCE.test(header)) tables += 1;
  }
  return tables;
}
