import { cut, oneLine, type CardView, type DecidedInteraction, type Locale } from '@progresscard/core/plugin';
import type { SlackBlock, SlackButton } from './payload.js';
import { toMrkdwn } from './mrkdwn.js';

/**
 * How open questions are drawn: `buttons` (Block Kit buttons; needs interactivity configured) or
 * `text` (the reply to type, e.g. `/approve 3F2A`).
 */
export type ControlStyle = 'buttons' | 'text';

/**
 * The `value` a button sends back (in the `block_actions` payload's `actions[].value`, a string of at
 * most 2000 characters): which card message, interaction and option it belongs to. `pc` marks
 * progresscard's controls.
 */
interface ControlValue {
  readonly pc: '1';
  readonly card: string;
  readonly interaction: string;
  readonly option: string;
}

/** `block_id` prefix of the free text input: `pc_answer|<card>|<interaction>` (an input sends no value of ours). */
export const ANSWER_BLOCK_PREFIX = 'pc_answer';
/** `action_id` of the free text input. */
export const ANSWER_ACTION_ID = 'pc_answer';

const TEXTS: Readonly<Record<Locale, { stop: string; answer: string; placeholder: string; reply: string; timedOut: string }>> = {
  'zh-CN': { stop: '⏹ 停止运行', answer: '回复（回车发送）', placeholder: '输入回复…', reply: '回复', timedOut: '超时未处理' },
  en: { stop: '⏹ Stop', answer: 'Answer (Enter sends)', placeholder: 'Type your answer…', reply: 'Reply', timedOut: 'timed out' },
};

const TONE: Readonly<Record<DecidedInteraction['tone'], string>> = { positive: ':white_check_mark:', negative: ':x:', timeout: ':hourglass:' };

function button(actionId: string, label: string, value: ControlValue, style?: 'default' | 'primary' | 'danger'): SlackButton {
  return { type: 'button', action_id: actionId, text: { type: 'plain_text', text: oneLine(label, 75), emoji: true }, value: JSON.stringify(value), ...(style && style !== 'default' ? { style } : {}) };
}

/** The decisions made so far: who decided what (✅ approved / answered, ❌ denied, ⌛ timed out). */
export function decisionBlocks(view: CardView, maxChars: number): SlackBlock[] {
  const decisions = view.decisions ?? [];
  if (decisions.length === 0) return [];
  const texts = TEXTS[view.locale];
  const lines = decisions.map((d) => {
    const who = d.tone === 'timeout' ? texts.timedOut : (d.by ?? '');
    return `${TONE[d.tone]} ${toMrkdwn(oneLine(d.answer, 200))}${who ? ` · ${toMrkdwn(oneLine(who, 60))}` : ''}`;
  });
  return [{ type: 'section', block_id: 'pc_decided', text: { type: 'mrkdwn', text: cut(lines.join('\n'), maxChars) } }];
}

/**
 * Buttons of the open question (an `actions` block), the free text input, and the Stop button; in
 * `text` style (or when the callbacks could not start) the reply to type instead. None on a card
 * without controls, so a decided question's buttons disappear.
 */
export function controlBlocks(view: CardView, style: ControlStyle): SlackBlock[] {
  const controls = view.controls;
  if (!controls) return [];
  const texts = TEXTS[view.locale];
  const asText = style === 'text' || controls.replyByText === true;
  const pending = controls.pending;
  const value = (interaction: string, option: string): ControlValue => ({ pc: '1', card: controls.cardId, interaction, option });
  if (asText) {
    if (!pending) return [];
    const replies = pending.options.map((o) => `\`/${o.id} ${pending.code}\` (${toMrkdwn(oneLine(o.label, 40))})`);
    if (pending.freeText) replies.push(`\`/answer ${pending.code} …\``);
    return [{ type: 'context', block_id: 'pc_reply', elements: [{ type: 'mrkdwn', text: `${texts.reply}: ${replies.join(' / ')}` }] }];
  }
  const out: SlackBlock[] = [];
  const buttons: SlackButton[] = (pending?.options ?? []).map((option, i) => button(`pc_opt_${i}`, option.label, value(pending!.id, option.id), option.style));
  if (controls.stop) buttons.push(button('pc_stop', texts.stop, value('stop', 'stop'), 'danger'));
  if (pending?.freeText) {
    out.push({
      type: 'input',
      block_id: `${ANSWER_BLOCK_PREFIX}|${controls.cardId}|${pending.id}`,
      dispatch_action: true,
      label: { type: 'plain_text', text: texts.answer },
      element: { type: 'plain_text_input', action_id: ANSWER_ACTION_ID, placeholder: { type: 'plain_text', text: texts.placeholder }, max_length: 1000, dispatch_action_config: { trigger_actions_on: ['on_enter_pressed'] } },
    });
  }
  if (buttons.length > 0) out.push({ type: 'actions', block_id: 'pc_controls', elements: buttons });
  return out;
}
