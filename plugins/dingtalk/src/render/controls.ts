import { cut, type CardView, type DecidedInteraction, type Locale } from '@progresscard/core/plugin';
import { escapeInline } from './markdown.js';

/**
 * How open questions are drawn: `buttons` (the controls variable, for a template with buttons bound
 * to it and card callbacks over Stream mode) or `text` (the reply to type, e.g. `/approve 3F2A`).
 */
export type ControlStyle = 'buttons' | 'text';

/**
 * The `params` a control carries back in the card callback (`cardPrivateData.params`): which card
 * message, interaction and option it belongs to. `pc` marks progresscard's controls; a free text
 * answer comes back as `answer`.
 */
export interface ControlParams {
  readonly pc: '1';
  readonly card: string;
  readonly interaction: string;
  readonly option: string;
}

/** One control in the controls variable: `id` is the callback's action id. */
export interface ControlButton {
  readonly id: string;
  readonly text: string;
  /** `blue` (primary), `red` (danger) or `gray`. */
  readonly color: 'blue' | 'red' | 'gray';
  readonly params: ControlParams;
}

/**
 * The controls variable (`callbacks.controlsKey`, default `pcControls`): a JSON string
 * `{ buttons: ControlButton[], input?: ControlButton & { placeholder } }`, empty when the card has no
 * controls. progresscard's template convention: the template's buttons and input are bound to it
 * and send their `params` in the card callback (UNCONFIRMED against a published template here;
 * the emulator follows the same convention).
 */
export function controlsVariable(view: CardView): string {
  const controls = view.controls;
  // Callbacks that could not start make buttons useless: the reply to type shows in the markdown instead.
  if (!controls || controls.replyByText || (!controls.pending && !controls.stop)) return '';
  const texts = TEXTS[view.locale];
  const params = (interaction: string, option: string): ControlParams => ({ pc: '1', card: controls.cardId, interaction, option });
  const buttons: ControlButton[] = [];
  const pending = controls.pending;
  pending?.options.forEach((option, i) => {
    buttons.push({ id: `ia_opt_${i}`, text: cut(option.label, 40), color: option.style === 'danger' ? 'red' : option.style === 'primary' ? 'blue' : 'gray', params: params(pending.id, option.id) });
  });
  if (controls.stop) buttons.push({ id: 'ia_stop', text: texts.stop, color: 'red', params: params('stop', 'stop') });
  const input = pending?.freeText ? { id: 'ia_send', text: texts.send, color: 'blue' as const, placeholder: texts.placeholder, params: params(pending.id, '') } : undefined;
  return JSON.stringify(input ? { buttons, input } : { buttons });
}

const TEXTS: Readonly<Record<Locale, { stop: string; send: string; placeholder: string; reply: string; timedOut: string }>> = {
  'zh-CN': { stop: '⏹ 停止运行', send: '发送', placeholder: '输入回复…', reply: '回复', timedOut: '超时未处理' },
  en: { stop: '⏹ Stop', send: 'Send', placeholder: 'Type your answer…', reply: 'Reply', timedOut: 'timed out' },
};

const TONE: Readonly<Record<DecidedInteraction['tone'], { icon: string; token: string }>> = {
  positive: { icon: '✅', token: 'common_green1_color' },
  negative: { icon: '❌', token: 'common_red1_color' },
  timeout: { icon: '⌛', token: 'common_red1_color' },
};

/** Markdown of the decisions made (green / red, who decided) and, in `text` style, the reply to type. */
export function interactionMarkdown(view: CardView, style: ControlStyle): string {
  const texts = TEXTS[view.locale];
  const lines = (view.decisions ?? []).map((d) => {
    const { icon, token } = TONE[d.tone];
    const who = d.tone === 'timeout' ? texts.timedOut : (d.by ?? '');
    return `<font colorTokenV2=${token}>${icon} ${escapeInline(cut(d.answer, 200))}${who ? ` · ${escapeInline(cut(who, 60))}` : ''}</font>`;
  });
  const pending = view.controls?.pending;
  if (pending && (style === 'text' || view.controls?.replyByText)) {
    const replies = pending.options.map((o) => `\`/${o.id} ${pending.code}\`（${escapeInline(cut(o.label, 40))}）`);
    if (pending.freeText) replies.push(`\`/answer ${pending.code} …\``);
    lines.push(`${texts.reply}${view.locale === 'zh-CN' ? '：' : ': '}${replies.join(' / ')}`);
  }
  return lines.join('\n\n');
}
