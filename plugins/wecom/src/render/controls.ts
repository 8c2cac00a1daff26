import { oneLine, type CardView } from '@progresscard/core/plugin';
import { WECOM_LIMITS } from './limits.js';
import type { WeComTemplateCard } from './payload.js';
import { WECOM_TEXTS } from './texts.js';
import { inline, prefixWithinBytes } from './markdown.js';

/** Prefix of every button key this plugin draws (`event_key` of a click). */
const BUTTON_KEY_PREFIX = 'pc';

const TONE = { positive: '✅', negative: '❌', timeout: '⌛' } as const;
/** Button styles 1–4 (https://developer.work.weixin.qq.com/document/path/101031); 2 is drawn as the warning style. */
const STYLE = { primary: 1, danger: 2, default: 4 } as const;

/** A button's `key`: `pc|<cardId>|<interactionId>|<optionId>`, parts URI-encoded (≤ 1024 bytes). */
function buttonKey(cardId: string, interactionId: string, optionId: string): string {
  return [BUTTON_KEY_PREFIX, cardId, interactionId, optionId].map(encodeURIComponent).join('|');
}

/** Reads a key drawn by {@link buttonKey}; undefined for any other key. */
export function parseButtonKey(key: string): { cardId: string; interactionId: string; optionId: string } | undefined {
  const parts = key.split('|');
  if (parts.length !== 4 || parts[0] !== BUTTON_KEY_PREFIX) return undefined;
  try {
    const [, cardId, interactionId, optionId] = parts.map(decodeURIComponent) as [string, string, string, string];
    return cardId && interactionId && optionId ? { cardId, interactionId, optionId } : undefined;
  } catch {
    return undefined;
  }
}

/** `task_id` of a card: `pc_` and the card id, in the allowed characters, ≤ 128 bytes. */
function taskIdOf(cardId: string): string {
  return prefixWithinBytes(`pc_${cardId.replace(/[^0-9A-Za-z_\-@]/g, '_')}`, WECOM_LIMITS.maxTaskIdBytes);
}

/** The decisions made so far, one Markdown line each. */
export function decisionLines(view: CardView): string[] {
  const texts = WECOM_TEXTS[view.locale];
  return (view.decisions ?? []).map((d) => {
    const who = d.tone === 'timeout' ? texts.timedOut : (d.by ?? '');
    return `${TONE[d.tone]} ${inline(oneLine(d.answer, 200))}${who ? ` · ${inline(oneLine(who, 60))}` : ''}`;
  });
}

/**
 * The template card with the open question's options and Stop (6 buttons at most: options first,
 * Stop last), or undefined when there is nothing to click or the callbacks could not start.
 */
export function templateCardOf(view: CardView, title: string): WeComTemplateCard | undefined {
  const controls = view.controls;
  if (!controls || controls.replyByText === true) return undefined;
  const pending = controls.pending;
  const room = WECOM_LIMITS.maxButtons - (controls.stop ? 1 : 0);
  const buttons: { text: string; style: 1 | 2 | 3 | 4; key: string }[] = (pending?.options ?? []).slice(0, room).map((option) => ({
    text: oneLine(option.label, WECOM_LIMITS.buttonChars),
    style: STYLE[option.style ?? 'default'],
    key: buttonKey(controls.cardId, pending!.id, option.id),
  }));
  if (controls.stop) buttons.push({ text: WECOM_TEXTS[view.locale].stop, style: 2, key: buttonKey(controls.cardId, 'stop', 'stop') });
  if (buttons.length === 0) return undefined;
  return {
    card_type: 'button_interaction',
    source: { desc: 'progresscard' },
    main_title: { title: oneLine(title, WECOM_LIMITS.titleChars), ...(pending ? { desc: oneLine(pending.prompt, 30) } : {}) },
    ...(pending ? { sub_title_text: oneLine(pending.prompt, 112) } : {}),
    button_list: buttons,
    task_id: taskIdOf(controls.cardId),
  };
}

/** The reply to type (`/approve 3F2A`), when the question cannot be answered by a button. */
export function replyLine(view: CardView): string | undefined {
  const pending = view.controls?.pending;
  if (!pending) return undefined;
  const replies = view.controls?.replyByText === true ? pending.options.map((o) => `\`/${o.id} ${pending.code}\` (${inline(oneLine(o.label, 40))})`) : [];
  if (pending.freeText) replies.push(`\`/answer ${pending.code} …\``);
  return replies.length > 0 ? `${WECOM_TEXTS[view.locale].reply}: ${replies.join(' / ')}` : undefined;
}
