import { breakLinkSyntax, isAllowedLinkDestination, neutraliseLinks } from '@progresscard/core/plugin';

/** `&`, `<`, `>` escaped, and `"` for attributes: the HTML parse mode needs no more (https://core.telegram.org/bots/api#html-style). */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * An inline link `[label](url)`. Neither label nor url holds a bracket (a url with one is written
 * percent-encoded, RFC 3986 §2.2): each match attempt stops at the next bracket, so unclosed `[`
 * or `[a](http://…` repeated thousands of times is one linear pass instead of one rescan per `[`.
 */
const INLINE_LINK = /\[([^[\]\n]+)\]\(([^)\s[\]]+)\)/g;

/** Prose (no code) as Telegram HTML: links other than http/https/mailto made plain, `**bold**` and `[text](url)` kept. */
function proseToHtml(markdown: string): string {
  const parts = neutraliseLinks(markdown).split(/(`[^`\n]+`)/);
  return parts
    .map((part, i) => {
      if (i % 2 === 1) return `<code>${escapeHtml(breakLinkSyntax(part.slice(1, -1)))}</code>`;
      return escapeHtml(part)
        .replace(/\*\*([^*\n]+)\*\*/g, '<b>$1</b>')
        .replace(INLINE_LINK, (whole, label: string, url: string) => (isAllowedLinkDestination(url.replace(/&amp;/g, '&')) ? `<a href="${url}">${label}</a>` : whole));
    })
    .join('');
}

/**
 * Agent markdown as Telegram HTML: fenced code as `<pre><code>`, inline code as `<code>`, bold and
 * allowed links kept, everything else escaped, so the text always parses. An unclosed fence is
 * closed at the end. Visible text is never longer than the markdown.
 */
export function markdownToTelegramHtml(markdown: string): string {
  const out: string[] = [];
  const lines = markdown.split('\n');
  let prose: string[] = [];
  let code: string[] | undefined;
  let language = '';
  const flushProse = () => {
    if (prose.length > 0) out.push(proseToHtml(prose.join('\n')));
    prose = [];
  };
  for (const line of lines) {
    const fence = /^\s*```\s*([\w+-]*)\s*$/.exec(line);
    if (code === undefined && fence) {
      flushProse();
      code = [];
      language = fence[1] ?? '';
    } else if (code !== undefined && /^\s*```\s*$/.test(line)) {
      out.push(codeBlock(code, language));
      code = undefined;
    } else if (code !== undefined) code.push(line);
    else prose.push(line);
  }
  if (code !== undefined) out.push(codeBlock(code, language));
  flushProse();
  return out.join('\n');
}

function codeBlock(lines: readonly string[], language: string): string {
  const body = escapeHtml(breakLinkSyntax(lines.join('\n')));
  return language ? `<pre><code class="language-${language}">${body}</code></pre>` : `<pre>${body}</pre>`;
}

/**
 * Splits markdown into pieces of at most `maxChars` code units, at a line end where one is near,
 * keeping code fences balanced in every piece (a fence cut in two is closed and opened again).
 */
export function splitMarkdown(markdown: string, maxChars: number, maxPieces: number): { pieces: string[]; leftOut: number } {
  const pieces: string[] = [];
  let rest = markdown.trim();
  let reopen = '';
  while (rest !== '' && pieces.length < maxPieces) {
    const room = maxChars - reopen.length - 4;
    let take = rest.length <= room ? rest.length : rest.lastIndexOf('\n', room);
    if (take < room / 2) take = room;
    // Never cut a surrogate pair.
    if (take < rest.length && /[\uD800-\uDBFF]/.test(rest[take - 1] ?? '')) take -= 1;
    let piece = reopen + rest.slice(0, take);
    rest = rest.slice(take).replace(/^\n/, '');
    const fences = piece.match(/^\s*```.*$/gm) ?? [];
    if (fences.length % 2 === 1) {
      const opening = /^\s*```\s*([\w+-]*)/.exec(fences.at(-1)!)?.[1] ?? '';
      piece += '\n```';
      reopen = `\`\`\`${opening}\n`;
    } else reopen = '';
    pieces.push(piece);
  }
  return { pieces, leftOut: rest.length };
}
