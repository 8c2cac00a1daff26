import { oneLine, type CardControls, type CardView, type DecidedInteraction, type Locale } from '@progresscard/core/plugin';
import type { FeishuElement } from './payload.js';
import { markdown } from './elements.js';
import { escapeCardMarkdown } from './markdown/index.js';

/**
 * How open questions are drawn: `buttons` (callback buttons; needs card callbacks configured) or
 * `text` (the reply to type, e.g. `/approve 3F2A`, for an app without callbacks).
 */
export type ControlStyle = 'buttons' | 'text';

/**
 * The `value` a control sends back in its callback (`behaviors[].value`, an object as the SDK
 * requires: https://open.feishu.cn/document/uAjLw4CM/ukzMukzMukzM/feishu-cards/configuring-card-interactions):
 * which card message, interaction and option it belongs to. `pc` marks progresscard's controls.
 */
export interface ControlValue {
  readonly pc: '1';
  readonly card: string;
  readonly interaction: string;
  readonly option: string;
}

/** `name` of the free text input inside the answer form; its text comes back in `action.form_value`. */
export const ANSWER_INPUT_NAME = 'answer';

const TEXTS: Readonly<Record<Locale, { stop: string; send: string; placeholder: string; reply: string; timedOut: string }>> = {
  'zh-CN': { stop: '⏹ 停止运行', send: '发送', placeholder: '输入回复…', reply: '回复', timedOut: '超时未处理' },
  en: { stop: '⏹ Stop', send: 'Send', placeholder: 'Type your answer…', reply: 'Reply', timedOut: 'timed out' },
};

const TONE: Readonly<Record<DecidedInteraction['tone'], { icon: string; colour: string }>> = {
  positive: { icon: '✅', colour: 'green' },
  negative: { icon: '❌', colour: 'red' },
  timeout: { icon: '⌛', colour: 'red' },
};

const value = (controls: CardControls, interaction: string, option: string): ControlValue => ({ pc: '1', card: controls.cardId, interaction, option });

function button(elementId: string, label: string, type: 'default' | 'primary' | 'danger', callback: ControlValue, extra: Record<string, unknown> = {}): FeishuElement {
  return { tag: 'button', element_id: elementId, text: { tag: 'plain_text', content: oneLine(label, 40) }, type, behaviors: [{ type: 'callback', value: callback }], ...extra };
}

/** The decisions made so far: who decided what, green for approved / answered, red for denied or timed out. */
export function decisionElements(view: CardView): FeishuElement[] {
  const decisions = view.decisions ?? [];
  if (decisions.length === 0) return [];
  const texts = TEXTS[view.locale];
  const lines = decisions.map((d) => {
    const { icon, colour } = TONE[d.tone];
    const who = d.tone === 'timeout' ? texts.timedOut : (d.by ?? '');
    const answer = escapeCardMarkdown(oneLine(d.answer, 200));
    return `<font color='${colour}'>${icon} ${answer}${who ? ` · ${escapeCardMarkdown(oneLine(who, 60))}` : ''}</font>`;
  });
  return [markdown('ia_decided', lines.join('\n'))];
}

/** Buttons (or the text reply) of the open question, and the Stop button. None on a card without controls. */
export function controlElements(view: CardView, style: ControlStyle): FeishuElement[] {
  const controls = view.controls;
  if (!controls) return [];
  const texts = TEXTS[view.locale];
  const out: FeishuElement[] = [];
  const pending = controls.pending;
  // Callbacks that could not start make buttons useless: the reply to type instead.
  const asText = style === 'text' || controls.replyByText === true;
  if (pending && asText) {
    const replies = pending.options.map((o) => `\`/${o.id} ${pending.code}\`（${escapeCardMarkdown(oneLine(o.label, 40))}）`);
    if (pending.freeText) replies.push(`\`/answer ${pending.code} …\``);
    out.push(markdown('ia_reply', `${texts.reply}${view.locale === 'zh-CN' ? '：' : ': '}${replies.join(' / ')}`));
  } else if (pending) {
    pending.options.forEach((option, i) => {
      out.push(button(`ia_opt_${i}`, option.label, option.style ?? 'default', value(controls, pending.id, option.id)));
    });
    if (pending.freeText) {
      out.push({
        tag: 'form',
        element_id: 'ia_form',
        name: 'ia_form',
        elements: [
          { tag: 'input', element_id: 'ia_input', name: ANSWER_INPUT_NAME, placeholder: { tag: 'plain_text', content: texts.placeholder }, max_length: 1000 },
          button('ia_send', texts.send, 'primary', value(controls, pending.id, ''), { name: 'ia_send', form_action_type: 'submit' }),
        ],
      });
    }
  }
  if (controls.stop && !asText) out.push(button('ia_stop', texts.stop, 'danger', value(controls, 'stop', 'stop')));
  return out;
}
