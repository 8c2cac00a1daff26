import { oneLine, type CardView } from '@progresscard/core/plugin';
import type { CallbackDataRegistry } from '../interaction/callback-data.js';
import { escapeHtml } from './html.js';
import type { TelegramButton } from './payload.js';
import { TELEGRAM_TEXTS } from './texts.js';

/** How open questions are drawn: `buttons` (inline keyboard; needs the webhook) or `text` (the reply to type). */
export type ControlStyle = 'buttons' | 'text';

const TONE = { positive: '✅', negative: '❌', timeout: '⌛' } as const;

/** The decisions made so far, one line each (✅ approved / answered, ❌ denied, ⌛ timed out). */
export function decisionLines(view: CardView): string[] {
  const texts = TELEGRAM_TEXTS[view.locale];
  return (view.decisions ?? []).map((d) => {
    const who = d.tone === 'timeout' ? texts.timedOut : (d.by ?? '');
    return `${TONE[d.tone]} ${escapeHtml(oneLine(d.answer, 200))}${who ? ` · ${escapeHtml(oneLine(who, 60))}` : ''}`;
  });
}

/**
 * The inline keyboard of the open question (a row of at most three option buttons each) and the
 * Stop button; with `text` style (or when the callbacks could not start) no keyboard, the reply to
 * type is a line of the card instead ({@link replyLine}). A free-text question always takes a typed
 * reply: inline keyboards have no text input.
 */
export function keyboardOf(view: CardView, style: ControlStyle, callbackData: CallbackDataRegistry): TelegramButton[][] {
  const controls = view.controls;
  if (!controls || style === 'text' || controls.replyByText === true) return [];
  const rows: TelegramButton[][] = [];
  const pending = controls.pending;
  const buttons = (pending?.options ?? []).map((option) => ({
    text: oneLine(option.label, 40),
    callback_data: callbackData.encode({ cardId: controls.cardId, interactionId: pending!.id, optionId: option.id }),
  }));
  for (let i = 0; i < buttons.length; i += 3) rows.push(buttons.slice(i, i + 3));
  if (controls.stop) rows.push([{ text: TELEGRAM_TEXTS[view.locale].stop, callback_data: callbackData.encode({ cardId: controls.cardId, interactionId: 'stop', optionId: 'stop' }) }]);
  return rows;
}

/** The reply to type (`/approve 3F2A`), when the question is answered by text. */
export function replyLine(view: CardView, style: ControlStyle): string | undefined {
  const pending = view.controls?.pending;
  if (!pending) return undefined;
  const byText = style === 'text' || view.controls?.replyByText === true;
  const replies = byText ? pending.options.map((o) => `<code>/${escapeHtml(o.id)} ${pending.code}</code> (${escapeHtml(oneLine(o.label, 40))})`) : [];
  if (pending.freeText) replies.push(`<code>/answer ${pending.code} …</code>`);
  return replies.length > 0 ? `${TELEGRAM_TEXTS[view.locale].reply}: ${replies.join(' / ')}` : undefined;
}
