import { escapeHtml, renderMarkdown } from './markdown.js';

/**
 * Discord messages → HTML for the preview page: the card's embed (title, description as Discord
 * markdown, footer) and its buttons, which the page can press
 * (https://discord.com/developers/docs/resources/message#embed-object).
 */

interface Embed {
  readonly title?: string;
  readonly description?: string;
  readonly footer?: { readonly text?: string };
}
interface Row {
  readonly components?: readonly { readonly label?: string; readonly style?: number }[];
}

/** The state shown on the card holder, from the status emoji of the embed's title. */
export function discordCardState(embeds: unknown): string {
  const title = ((embeds as Embed[] | undefined)?.[0]?.title ?? '').trim();
  if (title.startsWith('✅')) return 'completed';
  if (title.startsWith('❌')) return 'failed';
  if (title.startsWith('🚫')) return 'cancelled';
  if (title.startsWith('🙋')) return 'waiting';
  return 'running';
}

/** Renders one Discord message (content, embeds, buttons) as an HTML fragment. */
export function renderDiscordMessage(content: string, embeds: unknown, components: unknown): string {
  const parts: string[] = [];
  if (content.trim() !== '') parts.push(`<div class="el markdown">${renderMarkdown(content)}</div>`);
  for (const embed of (Array.isArray(embeds) ? embeds : []) as Embed[]) {
    if (embed.title) parts.push(`<div class="card-header"><div class="title">${escapeHtml(embed.title)}</div></div>`);
    // `-# ` is Discord's subtext line: shown as a note.
    if (embed.description) parts.push(`<div class="el markdown">${renderMarkdown(embed.description.replace(/^-# (.*)$/gm, '*$1*'))}</div>`);
    if (embed.footer?.text) parts.push(`<div class="el note">${escapeHtml(embed.footer.text)}</div>`);
  }
  for (const row of (Array.isArray(components) ? components : []) as Row[]) {
    for (const button of row.components ?? []) {
      const style = button.style === 1 ? 'primary' : button.style === 4 ? 'danger' : 'default';
      parts.push(`<button type="button" class="el btn btn-${style}" data-button="${escapeHtml(button.label ?? '')}">${escapeHtml(button.label ?? '')}</button>`);
    }
  }
  return parts.join('');
}
