/**
 * Cutting text for one spot on a card (a title, a tool line, an error): code-point safe, so a cut
 * never splits a UTF-16 surrogate pair (an emoji half would render as `�`), and grapheme safe where
 * the runtime has `Intl.Segmenter`, so a cut never splits an emoji ZWJ sequence or a flag.
 */

let segmenter: Intl.Segmenter | undefined | null;

function graphemes(): Intl.Segmenter | undefined {
  if (segmenter === undefined) segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;
  return segmenter ?? undefined;
}

/** UTF-16 offset after the first `count` code points of `text` (or its length when shorter). */
function offsetOfCodePoint(text: string, count: number): number {
  let offset = 0;
  for (let seen = 0; seen < count && offset < text.length; seen++) {
    const code = text.charCodeAt(offset);
    offset += code >= 0xd800 && code <= 0xdbff && offset + 1 < text.length ? 2 : 1;
  }
  return offset;
}

/** Moves `offset` back to the start of the grapheme cluster it falls in (looks at a small window only). */
function graphemeStart(text: string, offset: number): number {
  const segments = graphemes();
  if (!segments || offset <= 0 || offset >= text.length) return offset;
  // Grapheme clusters this long do not occur in text worth keeping whole; beyond that, a code-point cut is fine.
  const from = Math.max(0, offset - 64);
  let start = offset;
  for (const { index } of segments.segment(text.slice(from, Math.min(text.length, offset + 64)))) {
    if (from + index > offset) break;
    start = from + index;
  }
  return start;
}

/** Length of `text` in code points (what `maxCodePoints` counts). */
export function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) i += 1;
    n += 1;
  }
  return n;
}

/**
 * `text` when it has at most `maxCodePoints` code points; otherwise its start, cut so that the
 * result including `ellipsis` has at most `maxCodePoints` code points. Never cuts inside a
 * surrogate pair or a grapheme cluster (emoji ZWJ sequences, flags, combining marks).
 *
 * @param maxCodePoints the most code points of the result, ellipsis included (at least the ellipsis' length).
 * @param ellipsis marks the cut (default `…`).
 */
export function cut(text: string, maxCodePoints: number, ellipsis = '…'): string {
  // Fast path: UTF-16 length is an upper bound of the code-point count.
  if (text.length <= maxCodePoints) return text;
  if (codePointLength(text) <= maxCodePoints) return text;
  const keep = Math.max(0, maxCodePoints - codePointLength(ellipsis));
  return `${text.slice(0, graphemeStart(text, offsetOfCodePoint(text, keep)))}${ellipsis}`;
}

/** `text` on one line (runs of whitespace, newlines included, become one space; trimmed), then {@link cut}. */
export function oneLine(text: string, maxCodePoints: number, ellipsis = '…'): string {
  return cut(text.replace(/\s+/g, ' ').trim(), maxCodePoints, ellipsis);
}

/**
 * `text` with every lone UTF-16 surrogate (half of an emoji whose other half is missing) replaced
 * by U+FFFD, as `String.prototype.toWellFormed` does: platforms refuse or garble lone surrogates.
 */
export function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/**
 * The last `maxCodePoints` code points of `text` (all of it when shorter); never starts inside a
 * surrogate pair.
 */
export function tailCodePoints(text: string, maxCodePoints: number): string {
  if (text.length <= maxCodePoints) return text;
  let start = text.length - maxCodePoints;
  const code = text.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start += 1;
  return text.slice(start);
}
