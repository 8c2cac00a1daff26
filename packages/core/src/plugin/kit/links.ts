/**
 * Links in agent text: only `http`, `https` and `mailto` stay clickable. Any other scheme is an
 * action a click would take for the reader: `javascript:` / `vbscript:` / `data:` run or load
 * content, DingTalk's `dtmd://dingtalkclient/sendMessage?content=…` sends a chat message as the
 * reader, client schemes (`lark://`, `dingtalk://`, `slack://`) open app actions. Agent text may
 * carry such links from anything the agent read (a web page, a file, a tool's output), so the
 * renderers show them as plain text.
 */

import { GapText } from './gap-text.js';

/** Link schemes that stay clickable in agent text (lower case, without the colon). */
export const ALLOWED_LINK_SCHEMES: readonly string[] = ['http', 'https', 'mailto'];

/** Named entities that spell characters of a scheme (HTML 5 names); others leave the scheme unreadable, hence not allowed. */
const NAMED_ENTITIES: Readonly<Record<string, string>> = { colon: ':', tab: '\t', newline: '\n', sol: '/', period: '.', plus: '+', hyphen: '-', dash: '-', lpar: '(', rpar: ')', lt: '<', gt: '>', amp: '&' };

/** Numeric (`&#106;`, `&#x6A;`, also without `;`) and the named entities above, decoded once. */
function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]+));?/g, (whole, decimal?: string, hex?: string, name?: string) => {
    const code = decimal !== undefined ? Number(decimal) : hex !== undefined ? Number.parseInt(hex, 16) : undefined;
    if (code !== undefined) return code <= 0x10ffff ? String.fromCodePoint(code) : '';
    return NAMED_ENTITIES[name!.toLowerCase()] ?? whole;
  });
}

/**
 * Entities that stand for a letter, digit or one of `: / + . -` written as that character (it shows
 * the same), so a scheme spelled with entities (`javascript&#58;…`) is seen like any other. Entities
 * of markup characters (`&lt;`, `&amp;`, `&#91;`) stay: they are escapes.
 */
function spellOutSchemeEntities(text: string): string {
  return text.replace(/&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]+);?/g, (entity) => {
    const decoded = decodeEntities(entity);
    return /^[a-zA-Z0-9:/+.-]$/.test(decoded) ? decoded : entity;
  });
}

/** Characters a browser or markdown parser drops from a URL or that hide in it: whitespace, controls, zero-width and bidi marks. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes (a browser drops them from a URL)
const INVISIBLE = /[\s\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/g;

/**
 * Whether a link destination (as written in markdown) opens with an allowed scheme
 * ({@link ALLOWED_LINK_SCHEMES}). Read the way a parser and a browser would read it: entities
 * decoded, backslash escapes and invisible characters removed, `<…>` brackets dropped, case ignored.
 * A destination without a scheme (relative, `//host`, `#anchor`) is not allowed: a card has no page to
 * resolve it against.
 */
export function isAllowedLinkDestination(destination: string): boolean {
  // Written plainly (no entity, escape or invisible character before the colon): nothing to decode.
  const plain = /^<*([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(destination)?.[1];
  if (plain !== undefined) return ALLOWED_LINK_SCHEMES.includes(plain.toLowerCase());
  const readable = decodeEntities(destination)
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(INVISIBLE, '')
    .replace(/^<+/, '');
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(readable)?.[1]?.toLowerCase();
  return scheme !== undefined && ALLOWED_LINK_SCHEMES.includes(scheme);
}

/**
 * Script and data schemes and the chat clients' action schemes (`dtmd://dingtalkclient/sendMessage`
 * sends a message as the reader): a bare URL of these is broken wherever it stands, code included.
 */
const ACTION_SCHEMES = 'javascript|vbscript|data|file|dtmd|dingtalk|lark|feishu|slack';

/**
 * A bare `scheme:` that an autolinker could take for a link, its scheme not allowed: any scheme
 * followed by `//`, and the {@link ACTION_SCHEMES} followed by any URL character. Not after a scheme
 * character (so `a.b:` is read whole). Allowed schemes are left out by the pattern itself, not by a
 * replacer function: a text of many allowed links replaces nothing (a function called per link made
 * 400 000 links cost seconds).
 */
const BARE_SCHEME = new RegExp(
  `(?<![a-zA-Z0-9+.-])(?!(?:${ALLOWED_LINK_SCHEMES.join('|')}):)([a-zA-Z][a-zA-Z0-9+.-]*):(?=//|(?<=(?:${ACTION_SCHEMES}):)[^\\s\\u200b])`,
  'gi',
);
const ZERO_WIDTH_SPACE = '\u200b';

/** Text the link helpers read: a string, or the {@link GapText} that {@link unlinkInline} edits. */
type ReadableText = Pick<GapText, 'charAt' | 'charCodeAt' | 'slice' | 'length'>;

const BACKSLASH = 0x5c;
const BANG = 0x21;
const OPEN_PAREN = 0x28;
const CLOSE_PAREN = 0x29;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Index just past the `)` closing the `(` at `open` (nesting and backslash escapes honoured), or -1. */
function closingParen(text: GapText, open: number): number {
  let depth = 0;
  const length = text.length;
  for (let i = open; i < length; i++) {
    const c = text.code(i);
    if (c === BACKSLASH) i++;
    else if (c === OPEN_PAREN) depth++;
    else if (c === CLOSE_PAREN && --depth === 0) return i + 1;
  }
  return -1;
}

/** Index of the `[` opening the label that the `]` at `close` ends (nesting and escapes honoured), or -1. */
function openingBracket(text: GapText, close: number): number {
  let depth = 0;
  for (let i = close; i >= 0; i--) {
    if (i > 0 && text.code(i - 1) === BACKSLASH) continue;
    const c = text.code(i);
    if (c === CLOSE_BRACKET) depth++;
    else if (c === OPEN_BRACKET && --depth === 0) return i;
  }
  return -1;
}

/**
 * Characters of a destination read to decide whether its scheme is allowed. A scheme is short; one
 * that does not end within these (hidden behind invisible characters or escapes) counts as not
 * allowed. The bound keeps the scan linear: without it every `](` of `[a](http://x` repeated read the
 * rest of the text (an unclosed destination runs to the end), quadratic in the text.
 */
const SCHEME_PROBE_CHARS = 64;

/**
 * The destination of an inline link whose `(` is at `open`: `<…>`, or up to white space or the
 * unbalanced `)`; at most `limit` characters of it.
 */
function destinationAt(text: ReadableText, open: number, limit = Number.POSITIVE_INFINITY): string {
  let i = open + 1;
  while (text.charAt(i) === ' ' || text.charAt(i) === '\t' || text.charAt(i) === '\n') i++;
  const stop = Math.min(text.length, i + limit);
  if (text.charAt(i) === '<') {
    const end = text.slice(i, stop).indexOf('>');
    return text.slice(i, end < 0 ? stop : i + end + 1);
  }
  let depth = 0;
  let end = i;
  for (; end < stop; end++) {
    const c = text.charAt(end);
    if (c === '\\') end++;
    else if (/\s/.test(c)) break;
    else if (c === '(') depth++;
    else if (c === ')' && depth-- === 0) break;
  }
  return text.slice(i, Math.min(end, stop));
}

/** Whether the inline link destination after the `(` at `open` is allowed, read from its first {@link SCHEME_PROBE_CHARS}. */
function allowedDestinationAt(text: ReadableText, open: number): boolean {
  const plain = plainSchemeAt(text, open + 1);
  if (plain !== undefined) return ALLOWED_LINK_SCHEMES.includes(plain.toLowerCase());
  return isAllowedLinkDestination(destinationAt(text, open, SCHEME_PROBE_CHARS));
}

const isLetter = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
const isSchemeChar = (c: number) => isLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2e || c === 0x2d;

/**
 * A destination's scheme written plainly from `from` on (after optional blanks and `<`: what
 * `/[ \t\n]*<*([a-zA-Z][a-zA-Z0-9+.-]*):/y` reads there), or undefined. Read code by code: no string
 * is made for a destination whose scheme is plain.
 */
function plainSchemeAt(text: ReadableText, from: number): string | undefined {
  let i = from;
  for (let c = text.charCodeAt(i); c === 0x20 || c === 0x09 || c === 0x0a; c = text.charCodeAt(i)) i++;
  while (text.charCodeAt(i) === 0x3c) i++;
  const start = i;
  if (!isLetter(text.charCodeAt(i))) return undefined;
  while (isSchemeChar(text.charCodeAt(++i)));
  return text.charCodeAt(i) === 0x3a ? text.slice(start, i) : undefined;
}

/** Links removed from one text before the rest is unlinked wholesale (each removal copies the text: keeps hostile input linear). */
const MAX_REMOVED_LINKS = 200;

/**
 * Inline links `[label](destination …)` whose destination is not allowed become their label (an image
 * `![alt](…)` its alt); a `](…)` without its `[` loses the `](…)`; a `](` whose `)` never comes is no
 * link and keeps its text, its `](` broken by a zero-width space. Scanning goes on from just before a
 * removal, so text joined by it is read again. After {@link MAX_REMOVED_LINKS} removals every `](`
 * left is broken with a zero-width space (no inline link at all).
 */
function unlinkInline(text: string): string {
  // Edited in place (a gap buffer): a removal costs the distance from the last one, not a copy of the text.
  const out = new GapText(text);
  let removed = 0;
  for (let at = out.indexOfPair(CLOSE_BRACKET, OPEN_PAREN, 0); at >= 0; at = out.indexOfPair(CLOSE_BRACKET, OPEN_PAREN, at + 1)) {
    // An escaped `\\](` is removed too: whether its backslash is itself escaped is not worth the risk.
    if (allowedDestinationAt(out, at + 1)) continue;
    if (++removed > MAX_REMOVED_LINKS) return breakEveryLinkFrom(out.toString(), at);
    const close = closingParen(out, at + 1);
    if (close < 0) {
      // No `)`: not a link (CommonMark shows it as written); the text after it stays, the `](` is broken.
      // With no `)` at all after it, no later `](` is a link either: break them all in one pass (linear).
      if (out.indexOfCode(CLOSE_PAREN, at) < 0) return breakEveryLinkFrom(out.toString(), at);
      out.insert(at + 1, ZERO_WIDTH_SPACE);
      continue;
    }
    const open = openingBracket(out, at);
    const start = open > 0 && out.code(open - 1) === BANG && !(open > 1 && out.code(open - 2) === BACKSLASH) ? open - 1 : open;
    // The later part first: the earlier one's indexes stay as they are.
    out.delete(at, close);
    if (open >= 0) out.delete(start, open + 1);
    at = Math.max(-1, (open < 0 ? at : start) - 2);
  }
  return out.toString();
}

/** `text` with every `](` from `at` on broken by a zero-width space (no inline link at all). */
function breakEveryLinkFrom(text: string, at: number): string {
  // split/join: replaceAll with a two-byte replacement took ~0.5 s on 1 MB of `](` (split/join a fifth of it).
  return text.slice(0, at) + text.slice(at).split('](').join(`]${ZERO_WIDTH_SPACE}(`);
}

/**
 * A link reference definition (`[name]: destination`, the destination maybe on the next line) with a
 * destination that is not allowed, or none on its line: its `[` is escaped, so it defines nothing and
 * `[text][name]` stays text.
 */
function unlinkDefinitions(text: string): string {
  return text.replace(/(^|\n)( {0,3})\[((?:[^\]\\\n]|\\.)*)\]:([^\n]*)/g, (whole, lineStart: string, indent: string, name: string, rest: string) =>
    rest.trim() !== '' && isAllowedLinkDestination(rest.trim().split(/\s/)[0]!) ? whole : `${lineStart}${indent}\\[${name}]:${rest}`,
  );
}

/**
 * Agent markdown (prose, outside code) with every link whose scheme is not allowed made plain text:
 * an inline link or image becomes its label (`[Open](dtmd://dingtalkclient/sendMessage?content=hi)` →
 * `Open`), a reference definition is escaped, and a bare `scheme://…` (or `javascript:…`, `data:…`)
 * gets a zero-width space after its colon so no autolinker takes it. Entities that spell a letter,
 * digit or `: / + . -` are written as that character first. `http`, `https` and `mailto`
 * links stay as written. Pure; linear in the text apart from the links it removes (at most
 * {@link MAX_REMOVED_LINKS}, each edited in place). Callers apply it to
 * prose only: inside code spans and fences nothing is a link.
 */
export function neutraliseLinks(markdown: string): string {
  let out = unlinkDefinitions(spellOutSchemeEntities(markdown));
  out = unlinkInline(out);
  return out.replace(BARE_SCHEME, `$1:${ZERO_WIDTH_SPACE}`);
}

/** A bare {@link ACTION_SCHEMES} URL (broken inside code too; other bare URLs in code stay as written). */
const ACTION_SCHEMES_IN_CODE = new RegExp(`(?<![a-zA-Z0-9+.-])(${ACTION_SCHEMES}):(?=[^\\s\\u200b])`, 'gi');

/**
 * Code (a code span or fenced block) as written, with only the syntax of a not allowed link broken
 * by an invisible zero-width space: `](` before such a destination becomes `]\u200b(`, `]:` of such
 * a reference definition `]\u200b:`, and a bare script, data or chat-client action URL gets one
 * after its colon. Nothing is a link inside code, but where a platform ends a code span or block
 * earlier than the renderer thought, its text must not come alive. Other bare URLs stay as written
 * (code is copied: a hidden character in `redis://…` would break the command).
 */
export function breakLinkSyntax(code: string): string {
  const spelled = spellOutSchemeEntities(code);
  const inline = spelled.replace(/\]\(/g, (match, offset: number) => (allowedDestinationAt(spelled, offset + 1) ? match : `]${ZERO_WIDTH_SPACE}(`));
  return inline
    .replace(/(^|\n)( {0,3}\[(?:[^\]\\\n]|\\.)*\]):([^\n]*)/g, (whole, lineStart: string, label: string, rest: string) =>
      rest.trim() !== '' && isAllowedLinkDestination(rest.trim().split(/\s/)[0]!) ? whole : `${lineStart}${label}${ZERO_WIDTH_SPACE}:${rest}`,
    )
    .replace(ACTION_SCHEMES_IN_CODE, `$1:${ZERO_WIDTH_SPACE}`);
}
