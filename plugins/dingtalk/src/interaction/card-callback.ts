import type { CardView, ClickReply, ControlClick } from '@progresscard/core/plugin';
import type { DingTalkCardPayload } from '../render/payload.js';

/** Card variable (private to the clicking user) that shows the reply to a click: progresscard's template convention. */
const NOTICE_KEY = 'pcNotice';

/**
 * The answer to a card callback (sent back over Stream mode with `socketCallBackResponse`): the
 * clicking user's notice in `userPrivateData`, and, when the click changed the card, its new
 * variables, merged by key (`cardUpdateOptions.updateCardDataByKey`; shapes as in
 * dingtalk-stream-sdk-python `CardReplier`). The streamed content variable is left to the core's
 * update (a streaming template may not show content written as card data).
 */
export interface DingTalkCallbackResponse {
  readonly cardUpdateOptions: { readonly updateCardDataByKey: true; readonly updatePrivateDataByKey: true };
  readonly cardData?: { readonly cardParamMap: Readonly<Record<string, string>> };
  readonly userPrivateData: { readonly cardParamMap: Readonly<Record<string, string>> };
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function parse(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'string') return record(value);
  try {
    return record(JSON.parse(value));
  } catch {
    return undefined;
  }
}

/**
 * Maps a card callback (`data` of a `/v1.0/card/instances/callback` frame: `outTrackId`, `userId`,
 * `content` = `{"cardPrivateData":{"actionIds":[…],"params":{…}}}`) to a click, or undefined when it
 * is not one of progresscard's controls. `deliveryId` is the frame's `messageId`, which a re-push keeps.
 */
export function clickFromCardCallback(data: unknown, messageId: string): ControlClick | undefined {
  const payload = parse(data);
  const content = parse(payload?.content ?? payload?.value);
  const params = record(record(content?.cardPrivateData)?.params);
  const userId = text(payload?.userId);
  if (params?.pc !== '1' || !userId) return undefined;
  const cardId = text(params.card);
  const interactionId = text(params.interaction);
  if (!cardId || !interactionId) return undefined;
  return { cardId, interactionId, optionId: text(params.option), text: typeof params.answer === 'string' ? params.answer : undefined, user: { id: userId }, deliveryId: messageId };
}

/** The callback answer for a reply (see {@link DingTalkCallbackResponse}). */
export function callbackResponse(reply: ClickReply, render: (view: CardView) => DingTalkCardPayload, contentKey: string): DingTalkCallbackResponse {
  const base = { cardUpdateOptions: { updateCardDataByKey: true, updatePrivateDataByKey: true }, userPrivateData: { cardParamMap: { [NOTICE_KEY]: reply.message } } } as const;
  if (!reply.view) return base;
  const { [contentKey]: _content, ...variables } = render(reply.view).cardParamMap;
  return { ...base, cardData: { cardParamMap: variables } };
}
