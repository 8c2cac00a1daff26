import { breakLinkSyntax, neutraliseLinks } from '@progresscard/core/plugin';

/** Discord markdown characters escaped with `\` for text shown as is (https://discord.com/developers/docs/reference#message-formatting). */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\*_~`|>#\-[\]()])/g, '\\$1');
}

/**
 * Agent markdown as Discord shows it: prose with links other than http/https/mailto made plain
 * text, and Discord's angle-bracket markup (`<@user>`, `<#channel>`, `<t:…>`, `<:emoji:…>`) or
 * another platform's (`<at id=all>`) broken by a zero-width space after the `<`, so it shows as
 * written; code (fenced or inline) left as written (its link syntax broken where it would come alive). Mentions
 * cannot ping either way: the transport sends `allowed_mentions: { parse: [] }`.
 */
export function agentMarkdown(markdown: string): string {
  return markdown
    // Fenced blocks, then inline code spans (single or double backticks): shown literally by Discord.
    .split(/(```[\s\S]*?(?:```|$)|``[^`\n][^\n]*?``|`[^`\n]+`)/)
    .map((part, i) => (i % 2 === 1 ? breakLinkSyntax(part) : neutraliseLinks(part).replace(/<(?=[@#:a-zA-Z/])/g, '<\u200b')))
    .join('');
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
