import { breakLinkSyntax, neutraliseLinks } from '@progresscard/core/plugin';

/**
 * Agent text → DingTalk card markdown, kept to the documented subset
 * (https://open.dingtalk.com/document/development/markdown-variable-new): headings `#`…`#####`, bold,
 * italic, links, `*` lists (nestable), ordered lists, quotes, tables, fenced code, `***`, `<br>` and
 * `<font>` with tokens. Inline code is not in that subset, so a code span is shown as its text.
 * - The card interprets `<font …>`, `<a atId=…>` (an @-mention!) and `<br>` tags, also inside code
 *   on mobile, so no agent text may produce a tag anywhere: `<` in prose and in former code spans
 *   becomes `&lt;`; inside fenced code (shown as written) a zero-width space follows every `<` that
 *   could open a tag.
 * - `-` and `+` bullets become `*`; `######` headings become `#####`.
 * - Outside fenced code a single `\n` is no visual line break, so it becomes `<br>`, except before
 *   list, heading, quote, table and fence lines (DingTalk-Real-AI connector `normalizeForCard`);
 *   a table needs a blank line before it; a fence left open at the end is closed.
 */

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const BLOCK_START = /^\s*(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|>|\||`{3,}|~{3,}|(?:\*\s*){3,}$|(?:-\s*){3,}$)/;
const TABLE_ROW = /^\s*\|/;
const HEADING = /^\s{0,3}#{1,6}\s/;
const BULLET = /^(\s*)[-+](\s+)(?!(?:-\s*){2,}$)/;
const DEEP_HEADING = /^(\s{0,3})#{6,}(\s)/;
const ZERO_WIDTH_SPACE = '\u200b';

/**
 * A CommonMark code span: a whole backtick run (not part of a longer one, not after `\`) closed by a
 * run of exactly that length; anything else is prose, so a stray run cannot shield a tag.
 */
const CODE_SPAN = /(?<![`\\])(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;

/** `<` (and `&` that would form an entity) as text: the card shows them as written. */
function escapeTags(text: string): string {
  return text.replace(/&(?=[#a-zA-Z0-9]+;)/g, '&amp;').replace(/</g, '&lt;');
}

/**
 * Code shown as written in a fence: a zero-width space after each `<` that could open a tag
 * (`<font`, `</a`, `<!--`), so the card never parses it as one, and the syntax of links other than
 * http, https and mailto broken the same way (`breakLinkSyntax`), should the card end the block early.
 */
function neutraliseCode(code: string): string {
  return breakLinkSyntax(code.replace(/<(?=[A-Za-z/!?])/g, `<${ZERO_WIDTH_SPACE}`));
}

/**
 * A backtick left in the text after code spans became plain text (a lone one in prose, or one
 * streamed before its partner) shows as U+02CB `ˋ`, which opens no code span: whether DingTalk
 * honours a backslash escape is UNCONFIRMED, and a stray span would swallow the text up to the next
 * backtick.
 */
const STRAY_BACKTICK_LOOKALIKE = '\u02cb';

function escapeProse(text: string): string {
  return escapeTags(text).replace(/`/g, STRAY_BACKTICK_LOOKALIKE);
}

/**
 * Escapes prose, and turns each code span into its text (inline code is not documented), escaped
 * too; then, on the line as the card will read it, a link whose scheme is not http, https or mailto
 * (`[Open](dtmd://dingtalkclient/sendMessage?content=…)` would send a message as the reader) becomes
 * plain text (`neutraliseLinks`).
 */
function escapeLine(line: string): string {
  return neutraliseLinks(escapeSpans(line));
}

function escapeSpans(line: string): string {
  let out = '';
  let index = 0;
  for (const match of line.matchAll(CODE_SPAN)) {
    const inner = match[2]!;
    // CommonMark strips one space on each side when both are there.
    const code = inner.length > 2 && inner.startsWith(' ') && inner.endsWith(' ') ? inner.slice(1, -1) : inner;
    out += escapeProse(line.slice(index, match.index)) + escapeProse(code);
    index = match.index + match[0].length;
  }
  return out + escapeProse(line.slice(index));
}

/**
 * Escapes text for one inline spot (title, status, error, prompt, tool line): one line, no tag can
 * open, code spans shown as their text. Markdown emphasis is left as written: whether DingTalk honours
 * backslash escapes is UNCONFIRMED, and a visible `\_` in every `read_file` would be worse than a stray italic.
 */
export function escapeInline(text: string): string {
  return escapeLine(text.replace(/\s*\n\s*/g, ' ')).trim();
}

/** One prose line in the documented subset: `*` bullets, at most five heading levels, escaped text. */
function documentedLine(line: string): string {
  return escapeLine(line.replace(BULLET, '$1*$2').replace(DEEP_HEADING, '$1#####$2'));
}

/**
 * Agent markdown (answer, thinking) made safe and readable in a card: no live tag anywhere, line
 * breaks kept, tables separated by a blank line, the documented subset only. Fenced code stays as
 * written apart from the zero-width space after a tag-opening `<`.
 */
export function normalizeAgentMarkdown(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const fenceMatch = FENCE.exec(line);
    if (fence !== undefined) {
      out.push(neutraliseCode(line));
      if (fenceMatch && fenceMatch[1]![0] === fence[0] && fenceMatch[1]!.length >= fence.length && line.trim() === fenceMatch[1]) fence = undefined;
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      // A fence right under a table row or paragraph line would not start a code block everywhere.
      if (out.length > 0 && out[out.length - 1]!.trim() !== '') out.push('');
      out.push(neutraliseCode(line));
      continue;
    }
    const previous = out.length > 0 ? out[out.length - 1]! : undefined;
    const escaped = documentedLine(line);
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
