import { breakLinkSyntax, neutraliseLinks } from '@progresscard/core/plugin';

/** Byte-measured Markdown helpers (WeCom counts `stream.content` in UTF-8 bytes) and agent text made safe. */

/** UTF-8 length of `text` in bytes. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The longest prefix of `text` within `maxBytes` bytes of UTF-8, never splitting a code point. */
export function prefixWithinBytes(text: string, maxBytes: number): string {
  if (utf8Bytes(text) <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = utf8Bytes(char);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}

/** Agent text made safe for one line of the card: no line breaks, no heading or list marks at its start. */
export function inline(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/^[#>*-]+\s*/, '');
}

const FENCE = /^\s*(```|~~~)/;

/**
 * Cuts `text` into pieces of at most `firstBytes` (the first) and `restBytes` bytes (the others),
 * at most `maxPieces` of them, preferring a paragraph break, then a line break; a code fence open at
 * a cut is closed at the end of its piece and reopened in the next. `leftOut` counts the bytes that
 * did not fit.
 */
export function splitByBytes(text: string, firstBytes: number, restBytes: number, maxPieces: number): { pieces: string[]; leftOut: number } {
  const pieces: string[] = [];
  let rest = text.trim();
  let reopen = '';
  while (rest !== '' && pieces.length < maxPieces) {
    const budget = (pieces.length === 0 ? firstBytes : restBytes) - utf8Bytes(reopen) - 8;
    if (budget <= 0) break;
    let piece = prefixWithinBytes(rest, budget);
    if (piece.length < rest.length) {
      const paragraph = piece.lastIndexOf('\n\n');
      const line = piece.lastIndexOf('\n');
      const at = paragraph > piece.length / 2 ? paragraph : line > piece.length / 2 ? line : piece.length;
      piece = piece.slice(0, at);
    }
    rest = rest.slice(piece.length).replace(/^\n+/, '');
    const fences = (reopen + piece).split('\n').filter((l) => FENCE.test(l)).length;
    const open = fences % 2 === 1;
    pieces.push(`${reopen}${piece}${open && rest !== '' ? '\n```' : ''}`);
    reopen = open && rest !== '' ? '```\n' : '';
  }
  return { pieces, leftOut: utf8Bytes(rest) };
}

/**
 * Agent Markdown as WeCom shows it, made inert: outside code, links with a scheme other than http,
 * https and mailto become text (`neutraliseLinks`) and every `<` gets a zero-width space after it,
 * so no tag-like markup (`<font>`, an `<@userid>` mention: whether the AI bot's Markdown takes them
 * is UNCONFIRMED) comes alive; inside code fences only a not allowed link's syntax is broken.
 */
export function agentMarkdown(markdown: string): string {
  const out: string[] = [];
  let prose: string[] = [];
  let code: string[] | undefined;
  const flushProse = () => {
    if (prose.length > 0) out.push(neutraliseLinks(prose.join('\n')).replace(/</g, '<\u200b'));
    prose = [];
  };
  for (const line of markdown.split('\n')) {
    if (FENCE.test(line)) {
      if (code) {
        out.push(breakLinkSyntax([...code, line].join('\n')));
        code = undefined;
      } else {
        flushProse();
        code = [line];
      }
    } else if (code) code.push(line);
    else prose.push(line);
  }
  flushProse();
  if (code) out.push(breakLinkSyntax(code.join('\n')));
  return out.join('\n');
}
