/**
 * Counts GFM tables in markdown the way Feishu's card renderer sees them: a row with a `|`
 * followed by a delimiter row (`| --- | :-: |`), outside fenced code blocks.
 */
const DELIMITER_ROW = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** Number of GFM tables in `markdown`. */
export function countMarkdownTables(markdown: string): number {
  const lines = markdown.split(/\r?\n/);
  let fence: string | undefined;
  let tables = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1]!;
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      continue;
    }
    if (fence !== undefined || i === 0) continue;
    const header = lines[i - 1]!;
    const isDelimiter = line.includes('|') && DELIMITER_ROW.test(line);
    if (isDelimiter && header.includes('|') && !DELIMITER_ROW.test(header) && !FENCE.test(header)) tables += 1;
  }
  return tables;
}
