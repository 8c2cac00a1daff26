import type { CardView, ClickReply, ControlClick } from '@progresscard/core/plugin';
import type { FeishuCard } from '../render/payload.js';
import { ANSWER_INPUT_NAME } from '../render/controls.js';

/**
 * The response to a `card.action.trigger` callback, due within 3 s: a toast and, when the card
 * changed, the new card (`card.type: 'raw'`), which Feishu shows in place at once
 * (https://open.feishu.cn/document/uAjLw4CM/ukzMukzMukzM/feishu-cards/card-callback-communication).
 */
export interface FeishuCallbackResponse {
  readonly toast?: { readonly type: 'success' | 'info' | 'warning' | 'error'; readonly content: string };
  readonly card?: { readonly type: 'raw'; readonly data: FeishuCard };
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Maps a `card.action.trigger` callback to a click, or undefined when it is not a progresscard
 * control (or misses the operator or event id). Takes the HTTP body (`{ schema: '2.0', header,
 * event }`) and the SDK's flattened form (header and event fields at the top, as the
 * `EventDispatcher` passes it over the long connection).
 */
export function clickFromCardAction(body: unknown): ControlClick | undefined {
  const root = record(body);
  if (!root) return undefined;
  const header = record(root.header) ?? root;
  const event = record(root.event) ?? root;
  const action = record(event.action);
  const value = record(action?.value);
  const operator = record(event.operator);
  const deliveryId = text(header.event_id);
  const userId = text(operator?.open_id);
  if (value?.pc !== '1' || !deliveryId || !userId) return undefined;
  const cardId = text(value.card);
  const interactionId = text(value.interaction);
  if (!cardId || !interactionId) return undefined;
  const answer = record(action?.form_value)?.[ANSWER_INPUT_NAME];
  return {
    cardId,
    interactionId,
    optionId: text(value.option),
    text: typeof answer === 'string' ? answer : undefined,
    user: { id: userId, name: text(operator?.name) },
    deliveryId,
  };
}

/** The callback response for a reply: its toast and, when the click changed the card, the card. */
export function callbackResponse(reply: ClickReply, render: (view: CardView) => FeishuCard): FeishuCallbackResponse {
  const toast = { type: reply.tone, content: reply.message };
  return reply.view ? { toast, card: { type: 'raw', data: render(reply.view) } } : { toast };
}
