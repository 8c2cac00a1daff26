/**
 * Agent text → DingTalk card markdown (https://open.dingtalk.com/document/development/markdown-variable-new):
 * - the card interprets `<font …>`, `<a atId=…>` (an @-mention!) and `<br>` tags, so `<` in agent text
 *   is escaped as `&lt;` outside code, and no agent text can produce a tag;
 * - outside fenced code a single `\n` is no visual line break, so it becomes `<br>`, except before
 *   list, heading, quote, table and fence lines (DingTalk-Real-AI connector `normalizeForCard`);
 * - a table needs a blank line before it;
 * - fenced code is left exactly as written; a fence left open at the end is closed.
 */

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const BLOCK_START = /^\s*(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|>|\||`{3,}|~{3,}|(?:\*\s*){3,}$|(?:-\s*){3,}$)/;
const TABLE_ROW = /^\s*\|/;
const HEADING = /^\s{0,3}#{1,6}\s/;

/**
 * Escapes `<` (and `&` before it would form an entity) in text outside inline code spans. A span
 * opens with a whole backtick run (not part of a longer one, not after `\`) and closes with a run of
 * exactly that length (CommonMark); anything else is prose, so a stray run cannot shield a tag.
 */
function escapeOutsideCodeSpans(line: string): string {
  let out = '';
  let index = 0;
  for (const match of line.matchAll(CODE_SPAN)) {
    out += escapeProse(line.slice(index, match.index)) + match[0];
    index = match.index + match[0].length;
  }
  return out + escapeProse(line.slice(index));
}

/**
 * A backtick outside every code span (no closing run of its length on the line: mid-stream, or a
 * lone backtick in prose) shows as U+02CB `ˋ`, which opens no code span: whether DingTalk honours a
 * backslash escape is UNCONFIRMED, and a stray span would swallow the text up to the next backtick.
 */
const STRAY_BACKTICK_LOOKALIKE = '\u02cb';

function escapeProse(text: string): string {
  return escapeTags(text).replace(/`/g, STRAY_BACKTICK_LOOKALIKE);
}

const CODE_SPAN = /(?<![`\\])(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;

/**
 * The backticks that close a code span a cut left open at the end of `text` (on its last line), if
 * any: without them the span's `<`, left as written, would turn into a live tag.
 */
export function openCodeSpanCloser(text: string): string | undefined {
  const line = text.slice(text.lastIndexOf('\n') + 1);
  let end = 0;
  for (const match of line.matchAll(CODE_SPAN)) end = match.index + match[0].length;
  const run = /(?<![`\\])(`+)(?!`)/g;
  run.lastIndex = end;
  const open = run.exec(line);
  return open ? `${line.endsWith('`') ? ' ' : ''}${open[1]}` : undefined;
}

function escapeTags(text: string): string {
  return text.replace(/&(?=[#a-zA-Z0-9]+;)/g, '&amp;').replace(/</g, '&lt;');
}

/**
 * Escapes text for one inline spot (title, status, error, prompt, tool line): one line, `<` and
 * entity look-alikes escaped outside inline code, so agent text never becomes a tag or an @-mention.
 * Markdown emphasis is left as written: whether DingTalk honours backslash escapes is UNCONFIRMED,
 * and a visible `\_` in every `read_file` would be worse than a stray italic.
 */
export function escapeInline(text: string): string {
  return escapeOutsideCodeSpans(text.replace(/\s*\n\s*/g, ' ')).trim();
}

/**
 * Agent markdown (answer, thinking) made safe and readable in a card: tags escaped outside code,
 * line breaks kept, tables separated by a blank line. Code fences stay untouched.
 */
export function normalizeAgentMarkdown(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const fenceMatch = FENCE.exec(line);
    if (fence !== undefined) {
      out.push(line);
      if (fenceMatch && fenceMatch[1]![0] === fence[0] && fenceMatch[1]!.length >= fence.length && line.trim() === fenceMatch[1]) fence = undefined;
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      // A fence right under a table row or paragraph line would not start a code block everywhere.
      if (out.length > 0 && out[out.length - 1]!.trim() !== '') out.push('');
      out.push(line);
      continue;
    }
    const previous = out.length > 0 ? out[out.length - 1]! : undefined;
    const escaped = escapeOutsideCodeSpans(line);
    if (previous !== undefined && previous.trim() !== '' && line.trim() !== '') {
      if (TABLE_ROW.test(line) && !TABLE_ROW.test(previous)) out.push('');
      else if (!BLOCK_START.test(line) && !TABLE_ROW.test(previous) && !FENCE.test(previous) && !HEADING.test(previous)) out[out.length - 1] = `${previous}<br>`;
    }
    out.push(escaped);
  }
  // An answer still streaming (or cut by the agent) may stop inside a code block: close it, so
  // the card below it is not swallowed by the block.
  if (fence !== undefined) out.push(fence);
  return out.join('\n');
}

/** The fence (e.g. "```") left open at the end of `markdown`, if any. */
export function openFence(markdown: string): string | undefined {
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const match = FENCE.exec(line);
    if (!match) continue;
    if (fence === undefined) fence = match[1];
    else if (match[1]![0] === fence[0] && match[1]!.length >= fence.length && line.trim() === match[1]) fence = undefined;
  }
  return fence;
}
