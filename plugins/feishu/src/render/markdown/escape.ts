import { breakLinkSyntax, neutraliseLinks } from '@progresscard/core/plugin';
import { splitBlocks } from './blocks.js';

/**
 * Card markup tags that Feishu's markdown component turns into live elements (rich-text component
 * doc): mentions (`<at id=all>`), people, links, coloured text, tags… Agent text must never create them.
 */
const CARD_TAG = /<(\/?)(at|person|local_datetime|a|text_tag|raw|link|font|number_tag|br|hr)(?=[\s>/]|$)/gi;
const ZERO_WIDTH_SPACE = '\u200b';

/**
 * Text without `<`, `&`, `]` or `:` holds no card tag, entity, link, reference definition, image or
 * scheme: both escapes below leave it as written. Skipping them keeps an answer of thousands of tiny
 * code spans (`` `a`a`a… ``) from paying several regex passes per span.
 */
const NOTHING_TO_ESCAPE = /^[^<&\]:]*$/;

/**
 * Inside code: break only card tags, with an invisible zero-width space after `<`, and the syntax of
 * links other than http, https and mailto (`breakLinkSyntax`); other code stays as written.
 */
function neutraliseCode(code: string): string {
  if (NOTHING_TO_ESCAPE.test(code)) return code;
  return breakLinkSyntax(code.replace(CARD_TAG, `<${ZERO_WIDTH_SPACE}$1$2`));
}

/** Markdown images need a Feishu `img_key`; an image URL would get the whole card refused (230099 / 200570). */
const IMAGE = /!\[([^\]\n]*)\]\(\s*([^)\s]*)[^)\n]*\)/g;

/**
 * In prose every `<` becomes the entity `&#60;` (the doc's escape), so no tag can open, a link
 * whose scheme is not http, https or mailto becomes plain text (`neutraliseLinks`), and images
 * become links (http/https) or their alt text.
 */
function escapeProse(text: string): string {
  if (NOTHING_TO_ESCAPE.test(text)) return text;
  return neutraliseLinks(text)
    .replace(/</g, '&#60;')
    .replace(IMAGE, (_, alt: string, url: string) => (/^https?:\/\//i.test(url) ? `[${alt || url}](${url})` : alt));
}

/** A backslash-escaped backtick (CommonMark escape): shows a backtick, opens no code span. */
const STRAY_BACKTICK = '\\`';

/** Applies `prose` outside inline code spans and `code` inside them (CommonMark backtick runs). */
function mapInline(text: string, prose: (s: string) => string, code: (s: string) => string): string {
  let out = '';
  let i = 0;
  let plainStart = 0;
  while (i < text.length) {
    if (text[i] !== '`') {
      i += 1;
      continue;
    }
    let run = 1;
    while (text[i + run] === '`') run += 1;
    // look for a closing run of exactly the same length
    let j = i + run;
    let close = -1;
    while (j < text.length) {
      if (text[j] === '`') {
        let r = 1;
        while (text[j + r] === '`') r += 1;
        if (r === run) {
          close = j;
          break;
        }
        j += r;
      } else j += 1;
    }
    if (close < 0) {
      // A stray run (no closing run of its length; mid-stream, or a lone backtick in prose) is
      // escaped, so it cannot pair with a later backtick and swallow the text between them.
      out += `${prose(text.slice(plainStart, i))}${STRAY_BACKTICK.repeat(run)}`;
      i += run;
      plainStart = i;
      continue;
    }
    out += prose(text.slice(plainStart, i)) + code(text.slice(i, close + run));
    i = close + run;
    plainStart = i;
  }
  return out + prose(text.slice(plainStart));
}

/** Applies `inline` to each paragraph of `text` (a code span never spans a blank line), keeping the blank lines. */
function inParagraphs(text: string, inline: (paragraph: string) => string): string {
  return text
    .split(/(\n[ \t]*\n)/)
    .map((part, index) => (index % 2 === 1 ? part : inline(part)))
    .join('');
}

/**
 * Makes agent or tool text safe to put in a card's markdown: no `<at …>` mention, `<font>`,
 * `<a>`, `<link>` or other card tag can come alive, and no link but http, https and mailto
 * (`[x](lark://…)`, `javascript:…` show as plain text). Prose `<` becomes `&#60;` (renders as `<`);
 * a backtick run with no closing run of its length is escaped (`\``), so inline code is always balanced;
 * inside code spans and fenced blocks only card tags are broken (with a zero-width space),
 * so code reads as written.
 */
export function escapeCardMarkdown(markdown: string): string {
  return splitBlocks(markdown)
    .map((block) => (block.kind === 'fence' ? neutraliseCode(block.text) : inParagraphs(block.text, (paragraph) => mapInline(paragraph, escapeProse, neutraliseCode))))
    .join('\n');
}
