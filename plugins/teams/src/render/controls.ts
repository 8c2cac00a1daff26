import { oneLine, type CardView } from '@progresscard/core/plugin';
import type { AdaptiveElement, AdaptiveExecuteAction } from './payload.js';
import { TEAMS_TEXTS } from './texts.js';

/** How open questions are drawn: `buttons` (`Action.Execute`; needs the messaging endpoint) or `text` (the reply to type). */
export type ControlStyle = 'buttons' | 'text';

/** Verbs of the card's `Action.Execute` buttons (the invoke's `value.action.verb`). */
export const TEAMS_VERBS = { choice: 'progresscard.choice', answer: 'progresscard.answer', stop: 'progresscard.stop' } as const;

/** The id of the free-text input; its value arrives in the invoke's `value.action.data` under this key. */
export const ANSWER_INPUT_ID = 'progresscardAnswer';

const TONE = { positive: '✅', negative: '❌', timeout: '⌛' } as const;

/** The decisions made so far, one line each (✅ approved / answered, ❌ denied, ⌛ timed out). */
export function decisionBlocks(view: CardView): AdaptiveElement[] {
  const texts = TEAMS_TEXTS[view.locale];
  return (view.decisions ?? []).map((d) => {
    const who = d.tone === 'timeout' ? texts.timedOut : (d.by ?? '');
    return { type: 'TextBlock', wrap: true, text: `${TONE[d.tone]} ${oneLine(d.answer, 200)}${who ? ` · ${oneLine(who, 60)}` : ''}` };
  });
}

const styleOf = (optionId: string): AdaptiveExecuteAction['style'] => (/^(approve|allow|yes|ok)/i.test(optionId) ? 'positive' : /^(deny|reject|no|cancel)/i.test(optionId) ? 'destructive' : 'default');

/**
 * The card's buttons: one `Action.Execute` per option of the open question, a text input and Send for a
 * free-text question, and Stop while the run can be stopped. With `text` style (or when the endpoint could
 * not start) none: the reply to type is a line of the card ({@link replyLine}).
 */
export function cardActions(view: CardView, style: ControlStyle): { inputs: AdaptiveElement[]; actions: AdaptiveExecuteAction[] } {
  const controls = view.controls;
  if (!controls || style === 'text' || controls.replyByText === true) return { inputs: [], actions: [] };
  const texts = TEAMS_TEXTS[view.locale];
  const pending = controls.pending;
  const actions: AdaptiveExecuteAction[] = (pending?.options ?? []).map((option) => ({
    type: 'Action.Execute',
    title: oneLine(option.label, 40),
    verb: TEAMS_VERBS.choice,
    data: { cardId: controls.cardId, interactionId: pending!.id, optionId: option.id },
    style: styleOf(option.id),
  }));
  const inputs: AdaptiveElement[] = [];
  if (pending?.freeText) {
    inputs.push({ type: 'Input.Text', id: ANSWER_INPUT_ID, placeholder: texts.answerPlaceholder, isMultiline: true, maxLength: 4000 });
    actions.push({ type: 'Action.Execute', title: texts.send, verb: TEAMS_VERBS.answer, data: { cardId: controls.cardId, interactionId: pending.id } });
  }
  if (controls.stop) actions.push({ type: 'Action.Execute', title: texts.stop, verb: TEAMS_VERBS.stop, data: { cardId: controls.cardId, interactionId: 'stop' }, style: 'destructive' });
  return { inputs, actions };
}

/** The reply to type (`/approve 3F2A`), when the question is answered by text. */
export function replyLine(view: CardView, style: ControlStyle): string | undefined {
  const pending = view.controls?.pending;
  if (!pending) return undefined;
  const byText = style === 'text' || view.controls?.replyByText === true;
  if (!byText) return undefined;
  const replies = pending.options.map((o) => `\`/${o.id} ${pending.code}\` (${oneLine(o.label, 40)})`);
  if (pending.freeText) replies.push(`\`/answer ${pending.code} …\``);
  return replies.length > 0 ? `${TEAMS_TEXTS[view.locale].reply}: ${replies.join(' / ')}` : undefined;
}
