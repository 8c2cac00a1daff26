import { escapeHtml, renderMarkdown } from './markdown.js';
import { PLATFORM_STOP_BUTTON } from './model.js';

/**
 * Teams activities → HTML for the preview page. The plugin sends Adaptive Cards
 * (https://adaptivecards.io/explorer/): each `TextBlock` is drawn as Markdown (Teams renders a subset),
 * each `Action.Execute` as a button the page can press; a streamed 1:1 message shows its text, and while
 * it streams its informative line.
 */

interface CardElement {
  readonly type?: string;
  readonly text?: string;
  readonly title?: string;
  readonly isSubtle?: boolean;
}

/** The state shown on the card holder, from the status emoji of the first text. */
export function teamsCardState(firstText: string): string {
  if (firstText.startsWith('✅')) return 'completed';
  if (firstText.startsWith('❌')) return 'failed';
  if (firstText.startsWith('🚫')) return 'cancelled';
  if (firstText.startsWith('🙋')) return 'waiting';
  return 'running';
}

/** The Adaptive Cards of an activity's attachments. */
export function adaptiveCardsOf(attachments: readonly unknown[]): { body?: CardElement[]; actions?: CardElement[] }[] {
  return attachments.flatMap((a) => {
    const attachment = a as { contentType?: string; content?: { body?: CardElement[]; actions?: CardElement[] } };
    return attachment.contentType === 'application/vnd.microsoft.card.adaptive' && attachment.content ? [attachment.content] : [];
  });
}

/**
 * Renders one Teams activity (its text and Adaptive Cards) as an HTML fragment; a message that streams
 * now shows the Stop button Teams puts on every stream (`data-button` {@link PLATFORM_STOP_BUTTON}).
 */
export function renderTeamsActivity(text: string, attachments: readonly unknown[], informative?: string, streaming = false): string {
  const parts: string[] = [];
  if (informative && text === '') parts.push(`<div class="el note">${escapeHtml(informative)}</div>`);
  if (text !== '') parts.push(`<div class="el markdown">${renderMarkdown(text)}</div>`);
  for (const card of adaptiveCardsOf(attachments)) {
    for (const element of card.body ?? []) {
      if (element.type === 'TextBlock' && element.text) parts.push(`<div class="el ${element.isSubtle ? 'note' : 'markdown'}">${renderMarkdown(element.text)}</div>`);
    }
    for (const action of card.actions ?? []) {
      if (action.type === 'Action.Execute' && action.title) parts.push(`<button type="button" class="el btn btn-default" data-button="${escapeHtml(action.title)}">${escapeHtml(action.title)}</button>`);
    }
  }
  if (streaming) parts.push(`<button type="button" class="el btn btn-default btn-stop" data-button="${PLATFORM_STOP_BUTTON}">■ Stop</button>`);
  return parts.join('');
}
