import { Marked, type Tokens } from 'marked';

/**
 * Card markdown → safe HTML for the preview page.
 *
 * Agent text is untrusted: every raw HTML tag is shown as text, except the colour tags the
 * platforms define (Feishu `<font color='red'>`, DingTalk `<font colorTokenV2=common_blue1_color>`),
 * which become `<span class="c-…">` with a whitelisted class name. Links keep only http(s)/mailto
 * targets and open in a new tab; images are shown as their alt text (cards upload images by key).
 */

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => escapes[ch]!);
}

const FONT_OPEN = /^<font\s+(color|colorTokenV2)\s*=\s*(['"]?)([A-Za-z0-9_#-]{1,40})\2\s*>$/i;
const FONT_CLOSE = /^<\/font\s*>$/i;

/** A CSS class for a platform colour name or token (`red` → `c-red`, `common_blue1_color` → `c-common_blue1_color`). */
function colorClass(name: string): string {
  return `c-${name.replace(/^#/, 'hex-').toLowerCase()}`;
}

function safeHref(href: string): string | undefined {
  const trimmed = href.trim();
  return /^(https?:|mailto:)/i.test(trimmed) ? trimmed : undefined;
}

function renderHtmlToken(raw: string): string {
  // One html token may hold several tags and text between them (e.g. `<font color='grey'>x</font>`).
  return raw.replace(/<\/?[A-Za-z][^<>]*>|[^<]+|</g, (part) => {
    const open = FONT_OPEN.exec(part);
    if (open) return `<span class="${colorClass(open[3]!)}">`;
    if (FONT_CLOSE.test(part)) return '</span>';
    return escapeHtml(part);
  });
}

const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag): string {
      return renderHtmlToken(token.text);
    },
    link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Link): string {
      const text = this.parser.parseInline(token.tokens);
      const href = safeHref(token.href);
      if (!href) return text;
      return `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${text}</a>`;
    },
    image(token: Tokens.Image): string {
      return `<span class="img-alt">[${escapeHtml(token.text || 'image')}]</span>`;
    },
  },
});

/**
 * Renders card markdown to HTML. Font tags may span several inline tokens, so unbalanced ones are
 * closed at the end; everything else is escaped by marked or by the html rule above.
 */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown) as string;
  const opened = (html.match(/<span class="c-/g) ?? []).length;
  const closed = (html.match(/<\/span>/g) ?? []).length - (html.match(/<span class="img-alt">/g) ?? []).length;
  return opened > closed ? html + '</span>'.repeat(opened - closed) : html;
}
