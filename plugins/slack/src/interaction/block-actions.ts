import type { ClickReply, ControlClick } from '@progresscard/core/plugin';
import { ANSWER_ACTION_ID, ANSWER_BLOCK_PREFIX } from '../render/controls.js';
import type { SlackMessage } from '../render/payload.js';

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Maps a `block_actions` interaction payload (https://api.slack.com/reference/interaction-payloads/block-actions)
 * to a click, or undefined when its action is not one of progresscard's controls. A button carries
 * the card, interaction and option in its `value`; the free text input carries them in its
 * `block_id` and the text in `value`. `deliveryId` is the payload's `trigger_id`, unique per user
 * action, so the same payload sent twice counts once.
 */
export function clickFromBlockActions(payload: unknown): ControlClick | undefined {
  const root = record(payload);
  if (root?.type !== 'block_actions') return undefined;
  const action = record(Array.isArray(root.actions) ? root.actions[0] : undefined);
  const user = record(root.user);
  const userId = text(user?.id);
  const deliveryId = text(root.trigger_id) ?? text(action?.action_ts);
  if (!action || !userId || !deliveryId) return undefined;
  const who = { id: userId, name: text(user?.name) ?? text(user?.username) };
  if (action.action_id === ANSWER_ACTION_ID) {
    const [prefix, cardId, interactionId] = String(action.block_id ?? '').split('|');
    if (prefix !== ANSWER_BLOCK_PREFIX || !cardId || !interactionId) return undefined;
    return { cardId, interactionId, text: typeof action.value === 'string' ? action.value : '', user: who, deliveryId };
  }
  let value: Record<string, unknown> | undefined;
  try {
    value = record(JSON.parse(String(action.value ?? '')));
  } catch {
    return undefined;
  }
  const cardId = text(value?.card);
  const interactionId = text(value?.interaction);
  if (value?.pc !== '1' || !cardId || !interactionId) return undefined;
  return { cardId, interactionId, optionId: text(value.option), user: who, deliveryId };
}

/**
 * What to post to the payload's `response_url` for a reply
 * (https://api.slack.com/interactivity/handling#message_responses): the updated card replacing the
 * message (`replace_original`) when the click changed it, otherwise the reply as a message only the
 * clicking user sees (`response_type: 'ephemeral'`; Slack has no toast).
 */
export function responseFor(reply: ClickReply, render: (view: NonNullable<ClickReply['view']>) => SlackMessage): Record<string, unknown> {
  if (reply.view) {
    const message = render(reply.view);
    return { replace_original: true, text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) };
  }
  return { response_type: 'ephemeral', replace_original: false, text: reply.message };
}
