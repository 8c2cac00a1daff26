import { breakLinkSyntax, codePointLength, cut, neutraliseLinks } from '@progresscard/core/plugin';

/** `&`, `<`, `>` as entities: no agent text becomes a mention, a link or other markup. */
function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Agent text as plain mrkdwn: escaped ({@link escapeMrkdwn}), and a link whose scheme is not http,
 * https or mailto made plain text (`neutraliseLinks`: Slack links bare URLs it recognises).
 */
export function plainMrkdwn(text: string): string {
  return escapeMrkdwn(neutraliseLinks(text));
}

/**
 * Agent markdown as Slack mrkdwn (https://api.slack.com/reference/surfaces/formatting):
 * `&`, `<`, `>` escaped everywhere (so no agent text becomes a mention or a link markup), a link
 * whose scheme is not http, https or mailto made plain text outside code fences, `**bold**`
 * and `# headings` as `*bold*`; code spans and fences are kept as they are (Slack has both).
 */
export function toMrkdwn(markdown: string): string {
  let inFence = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s{0,3}```/.test(line)) {
        inFence = !inFence;
        return escapeMrkdwn(line);
      }
      if (inFence) return escapeMrkdwn(breakLinkSyntax(line));
      return plainMrkdwn(line).replace(/^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/, '*$1*').replace(/\*\*(.+?)\*\*/g, '*$1*');
    })
    .join('\n');
}

/** Whether `text` has more than `max` code points, looking at no more of it than needed. */
function longerThan(text: string, max: number): boolean {
  // Code points never outnumber UTF-16 units, and 2 × max + 2 units hold more than `max` code points.
  return text.length > max && codePointLength(text.slice(0, 2 * max + 2)) > max;
}

/** Result of {@link splitSections}. */
export interface SplitSections {
  readonly sections: readonly string[];
  /** Code points of the text after the last section that no section holds (0 when they hold it all). */
  readonly leftOut: number;
}

/**
 * Splits mrkdwn into pieces of at most `max` code points, at line ends where possible. A code fence
 * cut open is closed at the end of one piece and reopened at the start of the next, so every piece
 * renders on its own. Stops after `maxSections` pieces (default: all) and only counts the code
 * points of what is left. Linear in the text.
 */
export function splitSections(text: string, max: number, maxSections = Number.POSITIVE_INFINITY): SplitSections {
  const sections: string[] = [];
  const fence = '```';
  let current = '';
  /** Code points of `current`, kept as it grows (measuring it again at every line would be quadratic). */
  let currentChars = 0;
  let open = false;
  /** Offset of `text` up to which the sections hold it. */
  let covered = 0;
  const append = (line: string, chars: number) => {
    current = current === '' ? line : `${current}\n${line}`;
    currentChars += (currentChars === 0 ? 0 : 1) + chars;
  };
  /** Closes the piece being built (its text ends at `end` in `text`); true when no more sections are wanted. */
  const flush = (end: number): boolean => {
    if (current === '') return false;
    const piece = open ? `${current}\n${fence}` : current;
    // A piece of only fences and blank lines (an empty code block) shows nothing: no section for it.
    if (piece.replaceAll(fence, '').trim() !== '') sections.push(piece);
    covered = end;
    current = open ? fence : '';
    currentChars = open ? fence.length : 0;
    return sections.length >= maxSections;
  };
  const stopped = (): SplitSections => {
    const rest = text.slice(covered).replace(/^\n+/, '');
    // Only fences and blank lines left make no section.
    return { sections, leftOut: rest.replaceAll(fence, '').trim() === '' ? 0 : codePointLength(rest) };
  };
  if (maxSections <= 0) return stopped();
  // Room for a closing fence ("\n```") and a reopened one ("```\n").
  const room = max - 2 * (fence.length + 1);
  for (let lineStart = 0; lineStart <= text.length; ) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline < 0 ? text.length : newline;
    let line = text.slice(lineStart, lineEnd);
    let lineOffset = lineStart;
    while (longerThan(line, room)) {
      const head = cut(line.slice(0, 2 * room + 2), room, '');
      if (current !== '' && flush(lineOffset)) return stopped();
      append(head, codePointLength(head));
      line = line.slice(head.length);
      lineOffset += head.length;
      if (flush(lineOffset)) return stopped();
    }
    const lineChars = codePointLength(line);
    if (currentChars + (current === '' ? 0 : 1) + lineChars > room && flush(lineOffset)) return stopped();
    append(line, lineChars);
    if (/^\s{0,3}```/.test(line)) open = !open;
    lineStart = lineEnd + 1;
  }
  if (current !== '' && current !== fence) flush(text.length);
  return { sections, leftOut: 0 };
}
