/**
 * Telegram's HTML parse mode as the emulator checks it
 * (https://core.telegram.org/bots/api#html-style): only the listed tags, properly nested; every `<`,
 * `>` and `&` that is not part of a tag or an entity must be escaped; named entities `&lt;`, `&gt;`,
 * `&amp;`, `&quot;` and every numeric entity are understood.
 */

const TAGS: Readonly<Record<string, readonly string[]>> = {
  b: [], strong: [], i: [], em: [], u: [], ins: [], s: [], strike: [], del: [],
  'tg-spoiler': [], span: ['class'], a: ['href'], 'tg-emoji': ['emoji-id'], code: ['class'], pre: [], blockquote: ['expandable'],
};

const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** The visible text of an HTML message, or the parse error Telegram answers. */
export type HtmlParse = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string };

function decodeEntity(source: string, at: number): { text: string; length: number } | undefined {
  const match = /^&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/.exec(source.slice(at, at + 12));
  if (!match) return undefined;
  const body = match[1]!;
  if (body.startsWith('#')) {
    const code = body.startsWith('#x') ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    if (!Number.isFinite(code) || code > 0x10ffff) return undefined;
    return { text: String.fromCodePoint(code), length: match[0].length };
  }
  const named = NAMED[body];
  return named === undefined ? undefined : { text: named, length: match[0].length };
}

/**
 * Parses `source` as Telegram HTML: the text the user sees, or `can't parse entities: …` with the
 * byte offset Telegram reports (https://core.telegram.org/bots/api#formatting-options).
 */
export function parseTelegramHtml(source: string): HtmlParse {
  const open: string[] = [];
  let text = '';
  const byteOffset = (at: number) => Buffer.byteLength(source.slice(0, at));
  const fail = (why: string, at: number): HtmlParse => ({ ok: false, error: `can't parse entities: ${why} at byte offset ${byteOffset(at)}` });
  for (let at = 0; at < source.length; ) {
    const char = source[at]!;
    if (char === '&') {
      const entity = decodeEntity(source, at);
      if (!entity) return fail('Unsupported entity', at);
      text += entity.text;
      at += entity.length;
      continue;
    }
    if (char === '>') return fail('Unexpected end tag', at);
    if (char !== '<') {
      text += char;
      at += 1;
      continue;
    }
    const end = source.indexOf('>', at);
    if (end < 0) return fail('Unclosed start tag', at);
    const inner = source.slice(at + 1, end);
    if (inner.startsWith('/')) {
      const name = inner.slice(1).trim().toLowerCase();
      if (open.at(-1) !== name) return fail(`Can't find end tag corresponding to start tag "${open.at(-1) ?? ''}"`, at);
      open.pop();
    } else {
      const tag = /^([a-z-]+)((?:\s+[a-z-]+(?:="[^"<>]*")?)*)\s*$/i.exec(inner);
      const name = tag?.[1]?.toLowerCase() ?? '';
      const allowed = TAGS[name];
      if (!tag || !allowed) return fail(`Unsupported start tag "${name || inner.slice(0, 20)}"`, at);
      for (const attribute of (tag[2] ?? '').trim().split(/\s+/).filter(Boolean)) {
        const attributeName = attribute.split('=')[0]!.toLowerCase();
        if (!allowed.includes(attributeName)) return fail(`Unsupported attribute "${attributeName}" of tag "${name}"`, at);
      }
      open.push(name);
    }
    at = end + 1;
  }
  if (open.length > 0) return fail(`Can't find end tag corresponding to start tag "${open.at(-1)}"`, source.length);
  return { ok: true, text };
}
