import { escapeHtml, renderMarkdown } from './markdown.js';

/**
 * Telegram messages → HTML for the preview page. The plugin sends Telegram's HTML parse mode
 * (https://core.telegram.org/bots/api#html-style): the emulator keeps the visible text, which is
 * shown escaped with its line breaks; the inline keyboard becomes buttons the page can press; a
 * live draft is drawn below its card as Telegram draws the streaming preview.
 */

interface InlineButton {
  readonly text?: string;
}

/** The state shown on the card holder, from the status emoji of the first line. */
export function telegramCardState(text: string): string {
  const first = text.split('\n')[0] ?? '';
  if (first.startsWith('✅')) return 'completed';
  if (first.startsWith('❌')) return 'failed';
  if (first.startsWith('🚫')) return 'cancelled';
  if (first.startsWith('🙋')) return 'waiting';
  return 'running';
}

/** Renders one Telegram message (visible text and inline keyboard) as an HTML fragment. */
export function renderTelegramMessage(text: string, replyMarkup: unknown, draft?: string): string {
  const [title = '', ...rest] = text.split('\n');
  const rows = ((replyMarkup as { inline_keyboard?: InlineButton[][] } | undefined)?.inline_keyboard ?? []) as InlineButton[][];
  const buttons = rows
    .flat()
    .map((b) => `<button type="button" class="el btn btn-default" data-button="${escapeHtml(b.text ?? '')}">${escapeHtml(b.text ?? '')}</button>`)
    .join('');
  const body = `<div class="el markdown">${escapeHtml(rest.join('\n')).replace(/\n/g, '<br>')}</div>`;
  const live = draft === undefined ? '' : `<div class="el note">✍️ draft</div><div class="el markdown">${renderMarkdown(draft)}</div>`;
  return `<div class="card-header"><div class="title">${escapeHtml(title)}</div></div>${body}${buttons}${live}`;
}
