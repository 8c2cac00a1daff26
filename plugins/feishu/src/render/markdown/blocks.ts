/**
 * Splits markdown into fenced code blocks and the text between them (CommonMark fences:
 * up to 3 spaces of indent, 3+ backticks or tildes; a fence closes with the same character,
 * at least as long, and nothing else on the line).
 */

/** A run of lines: prose (`text`) or a fenced code block (`fence`, opening and closing lines included). */
export interface MarkdownBlock {
  readonly kind: 'text' | 'fence';
  readonly text: string;
  /** The opening line of a fence, e.g. "```ts". */
  readonly opener?: string;
  /** False for a fence still open at the end of the input. */
  readonly closed?: boolean;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** Closing marker for an opening fence line, e.g. "```ts" → "```". */
export function fenceMarker(opener: string): string {
  return FENCE_OPEN.exec(opener)?.[1] ?? '```';
}

function closes(line: string, marker: string): boolean {
  const trimmed = line.trim();
  if (/^ {4,}/.test(line)) return false;
  return trimmed.length >= marker.length && /^(`+|~+)$/.test(trimmed) && trimmed[0] === marker[0];
}

/** The blocks of `markdown`, in order; joining their `text` with "\n" gives the input back. */
export function splitBlocks(markdown: string): MarkdownBlock[] {
  // No fence can open without three backticks or tildes: one block, without taking the text apart into lines.
  if (!markdown.includes('```') && !markdown.includes('~~~')) return [{ kind: 'text', text: markdown }];
  const lines = markdown.split('\n');
  const blocks: MarkdownBlock[] = [];
  let text: string[] = [];
  let fence: { opener: string; marker: string; lines: string[] } | undefined;
  for (const line of lines) {
    if (fence) {
      fence.lines.push(line);
      if (closes(line, fence.marker)) {
        blocks.push({ kind: 'fence', text: fence.lines.join('\n'), opener: fence.opener, closed: true });
        fence = undefined;
      }
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    // A backtick fence's info string may not contain backticks.
    if (open && !(open[1]![0] === '`' && open[2]!.includes('`'))) {
      if (text.length > 0) blocks.push({ kind: 'text', text: text.join('\n') });
      text = [];
      fence = { opener: line, marker: open[1]!, lines: [line] };
      continue;
    }
    text.push(line);
  }
  if (fence) blocks.push({ kind: 'fence', text: fence.lines.join('\n'), opener: fence.opener, closed: false });
  else if (text.length > 0 || blocks.length === 0) blocks.push({ kind: 'text', text: text.join('\n') });
  return blocks;
}

/** The opening line of the fence still open at the end of `markdown`, if any. */
export function openFenceAtEnd(markdown: string): string | undefined {
  const last = splitBlocks(markdown).at(-1);
  return last?.kind === 'fence' && !last.closed ? last.opener : undefined;
}
