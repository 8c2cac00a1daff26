import { fenceMarker, openFenceAtEnd } from './blocks.js';

/** Result of {@link truncateMarkdown}. */
export interface Truncated {
  /** The kept part, valid markdown (an open code fence is closed). */
  readonly text: string;
  /** Characters of the input the kept part covers (the rest starts at this offset). */
  readonly consumed: number;
  readonly truncated: boolean;
  /** Opening line of the code fence that was open at the cut: reopen it where the rest continues. */
  readonly reopen?: string;
}

/**
 * Cuts `markdown` to at most about `maxChars` characters, preferring a line end in the last fifth,
 * never inside a surrogate pair or an HTML entity, and closes a code fence left open at the cut.
 */
export function truncateMarkdown(markdown: string, maxChars: number): Truncated {
  if (markdown.length <= maxChars) return { text: markdown, consumed: markdown.length, truncated: false };
  let cut = Math.max(0, Math.floor(maxChars));
  const newline = markdown.lastIndexOf('\n', cut);
  if (newline >= 0 && newline >= cut * 0.8) cut = newline;
  // do not split a surrogate pair
  const code = markdown.charCodeAt(cut - 1);
  if (cut > 0 && code >= 0xd800 && code <= 0xdbff) cut -= 1;
  // do not split an entity such as &#60;
  const entity = /&#?[0-9a-zA-Z]{0,8}$/.exec(markdown.slice(Math.max(0, cut - 10), cut));
  if (entity) cut -= entity[0].length;
  let text = withoutTrailing(markdown.slice(0, cut), ' \t');
  const reopen = openFenceAtEnd(text);
  if (reopen !== undefined) text = `${withoutTrailing(text, '\n')}\n${fenceMarker(reopen)}`;
  return { text, consumed: cut, truncated: true, reopen };
}

/**
 * `text` without the run of `chars` at its end. A loop from the end, not `/[ \t]+$/`: that regex
 * retries from every character of every run of spaces in the text, quadratic in the run (a list
 * nested 2 000 levels deep has 4 000-space indents).
 */
function withoutTrailing(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end -= 1;
  return text.slice(0, end);
}
