import { boundAnswer, codePointLength, cut, formatFooter, imagePlaceholderText, isTerminalStatus, noticeText, oneLine, type CardView } from '@progresscard/core/plugin';
import type { FeishuCard } from './payload.js';
import { FEISHU_GUARD_LIMITS, cardFits } from './guards.js';
import type { CardRenderOptions } from './card.js';
import { CARD_TEXTS, STATUS_TEMPLATE, statusLine } from './texts.js';

/** Plain text kept on a fallback card, in characters, before the byte check. */
const MAX_FALLBACK_CHARS = 8000;

/**
 * The plain-text card used after Feishu refused the rich one: the same header, and one `div` with
 * `plain_text` (no markdown, no tags, no tables), so nothing in agent text can be refused or
 * turned into a mention. Cut to fit with `…` at the cut.
 */
export function renderFallbackCard(view: CardView, options: CardRenderOptions): FeishuCard {
  const locale = options.locale ?? view.locale;
  const texts = CARD_TEXTS[locale];
  const title = oneLine(view.title.trim() || texts.defaultTitle, 100);
  const lines: string[] = [];
  if (view.status === 'waiting' && view.waitingFor) lines.push(`${texts.waitingLabel}${texts.colon}${view.waitingFor}`);
  if (view.notice) lines.push(noticeText(view.notice, locale, options.timeZone));
  // Only the start of the answer fits in the text: the rest is never joined or measured.
  const answer = boundAnswer(view, MAX_FALLBACK_CHARS).answer;
  if (answer) lines.push(answer);
  if (view.images.length > 0) lines.push(view.images.map((image) => imagePlaceholderText(image, locale)).join('\n'));
  if (view.error && (view.status === 'failed' || view.status === 'cancelled'))
    lines.push(`${view.status === 'failed' ? texts.failedLabel : texts.cancelledLabel}${texts.colon}${view.error}`);
  if (view.tools.length > 0) lines.push(`${texts.tools}:\n${view.tools.slice(-10).map((t) => `- ${t.text}`).join('\n')}`);
  if (isTerminalStatus(view.status))
    lines.push(formatFooter(view.footer, { style: options.footerStyle, fields: options.footerFields, locale, timeZone: options.timeZone }));
  const make = (text: string): FeishuCard => ({
    schema: '2.0',
    config: { update_multi: true, summary: { content: `${texts.status[view.status]} · ${oneLine(title, 60)}` }, width_mode: 'fill' },
    header: {
      title: { tag: 'plain_text', content: title },
      subtitle: { tag: 'plain_text', content: statusLine(view.status, view.round, texts) },
      template: STATUS_TEMPLATE[view.status],
    },
    body: { elements: [{ tag: 'div', element_id: 'text', text: { tag: 'plain_text', content: text || texts.thinkingNow } }] },
  });
  let text = lines.join('\n\n');
  text = cut(text, MAX_FALLBACK_CHARS + 1);
  let card = make(text);
  const limits = options.limits ?? FEISHU_GUARD_LIMITS;
  for (let i = 0; i < 50 && !cardFits(card, limits); i++) {
    text = cut(text, Math.floor(codePointLength(text) * 0.8) + 1);
    card = make(text);
  }
  return card;
}
