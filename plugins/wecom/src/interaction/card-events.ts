import type { CardRenderer, ClickReply, ControlClick } from '@progresscard/core/plugin';
import { parseButtonKey } from '../render/controls.js';
import type { WeComPayload, WeComTemplateCard } from '../render/payload.js';

/** `event.template_card_event` of a click (https://developer.work.weixin.qq.com/document/path/101027, 模板卡片事件). */
export interface TemplateCardEvent {
  readonly card_type?: string;
  readonly event_key?: string;
  readonly task_id?: string;
}

/** The click a `template_card_event` carries, or undefined when its key is not one of this plugin's buttons. */
export function clickOf(event: TemplateCardEvent, plain: Record<string, unknown>): ControlClick | undefined {
  const parsed = parseButtonKey(String(event.event_key ?? ''));
  const userid = (plain.from as { userid?: unknown } | undefined)?.userid;
  if (!parsed || typeof userid !== 'string' || userid === '') return undefined;
  return { cardId: parsed.cardId, interactionId: parsed.interactionId, optionId: parsed.optionId, user: { id: userid }, deliveryId: String(plain.msgid ?? `${event.task_id}:${event.event_key}:${userid}`) };
}

/**
 * The answer to a click: the clicked card updated in place (`response_type: update_template_card`,
 * same `task_id`; https://developer.work.weixin.qq.com/document/path/101031, 回复消息更新模板卡片) with
 * the card after the click — the next question's buttons, or the decision with Stop. A card with no
 * buttons left shows the decision in its title (whether WeCom takes an empty `button_list` is
 * UNCONFIRMED). Undefined (an empty 200) when the card did not change.
 */
export function updateCardAnswer(reply: ClickReply, taskId: string | undefined, renderer: CardRenderer<WeComPayload>): unknown {
  if (!reply.view || !taskId) return undefined;
  const rendered = renderer.render(reply.view).card;
  const card: WeComTemplateCard = rendered
    ? { ...rendered, task_id: taskId }
    : { card_type: 'button_interaction', main_title: { title: reply.message.slice(0, 26) }, button_list: [], task_id: taskId };
  return { response_type: 'update_template_card', template_card: card };
}
