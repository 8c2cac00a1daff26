import { escapeHtml, renderMarkdown } from './markdown.js';

/**
 * WeCom AI bot messages → HTML for the preview page: the stream's Markdown as WeCom shows it (empty:
 * the "thinking" animation), the `button_interaction` template card below it with its buttons, and
 * a `response_url` message as its own bubble (https://developer.work.weixin.qq.com/document/path/101031).
 */

interface TemplateCard {
  readonly main_title?: { readonly title?: string; readonly desc?: string };
  readonly button_list?: readonly { readonly text?: string; readonly style?: number }[];
}

/** The state shown on the card holder, from the status emoji the plugin's Markdown starts with. */
export function wecomCardState(markdown: string, expiredWith?: number): string {
  if (expiredWith !== undefined) return `expired ${expiredWith}`;
  const start = markdown.trim();
  if (start.startsWith('✅')) return 'completed';
  if (start.startsWith('❌')) return 'failed';
  if (start.startsWith('🚫')) return 'cancelled';
  if (start.startsWith('🙋')) return 'waiting';
  return start === '' ? 'thinking' : 'running';
}

/** Renders one WeCom message (stream or `response_url` reply) and its template card as an HTML fragment. */
export function renderWeComMessage(markdown: string, card: unknown, kind: 'stream' | 'reply'): string {
  const parts: string[] = [];
  if (kind === 'reply') parts.push('<div class="el note">response_url</div>');
  parts.push(markdown.trim() === '' ? '<div class="el note">…</div>' : `<div class="el markdown">${renderMarkdown(markdown)}</div>`);
  const template = card as TemplateCard | undefined;
  if (template?.main_title?.title) parts.push(`<div class="card-header"><div class="title">${escapeHtml(template.main_title.title)}</div></div>`);
  for (const button of template?.button_list ?? []) {
    const style = button.style === 1 ? 'primary' : button.style === 2 ? 'danger' : 'default';
    parts.push(`<button type="button" class="el btn btn-${style}" data-button="${escapeHtml(button.text ?? '')}">${escapeHtml(button.text ?? '')}</button>`);
  }
  return parts.join('');
}
