/**
 * Feishu Open API codes and messages the emulator answers with. Source: the reference notes
 * (Feishu message/create, message/patch, generic-error-code and 频控策略 doc pages).
 */

/** Route names used in fault rules, call history and counts. */
export const FEISHU_ROUTES = {
  token: 'auth.tenant_access_token',
  create: 'im.message.create',
  reply: 'im.message.reply',
  patch: 'im.message.patch',
  /** `DELETE /open-apis/im/v1/messages/:message_id`: recall (https://open.feishu.cn/document/server-docs/im-v1/message/delete). */
  recall: 'im.message.delete',
  /** `GET /open-apis/im/v1/messages` (https://open.feishu.cn/document/server-docs/im-v1/message/list). */
  list: 'im.message.list',
  /** `POST /open-apis/cardkit/v1/cards` (https://open.larksuite.com/document/uAjLw4CM/ukTMukTMukTM/cardkit-v1/card/create). */
  cardCreate: 'cardkit.card.create',
  /** `PUT /open-apis/cardkit/v1/cards/:card_id` (https://open.larksuite.com/document/uAjLw4CM/ukTMukTMukTM/cardkit-v1/card/update). */
  cardUpdate: 'cardkit.card.update',
  /** `PATCH /open-apis/cardkit/v1/cards/:card_id/settings` (https://open.larksuite.com/document/uAjLw4CM/ukTMukTMukTM/cardkit-v1/card/settings). */
  cardSettings: 'cardkit.card.settings',
  /** `PUT /open-apis/cardkit/v1/cards/:card_id/elements/:element_id/content` (https://open.larkoffice.com/document/cardkit-v1/card-element/content). */
  elementContent: 'cardkit.element.content',
  /** `POST /open-apis/im/v1/images` (https://open.feishu.cn/document/server-docs/im-v1/image/create). */
  imageCreate: 'im.image.create',
  /** `POST /open-apis/im/v1/files` (https://open.feishu.cn/document/server-docs/im-v1/file/create). */
  fileCreate: 'im.file.create',
  /** `POST /open-apis/im/v1/messages/:message_id/reactions` (https://open.feishu.cn/document/server-docs/im-v1/message-reaction/create). */
  reactionCreate: 'im.reaction.create',
  /** `DELETE /open-apis/im/v1/messages/:message_id/reactions/:reaction_id` (https://open.feishu.cn/document/server-docs/im-v1/message-reaction/delete). */
  reactionDelete: 'im.reaction.delete',
  /** `GET /open-apis/application/v6/scopes`: the app's scopes and whether the tenant granted each (https://open.feishu.cn/document/uAjLw4CM/ukTMukTMukTM/application-v6/scope/list). */
  scopeList: 'application.scope.list',
} as const;

/** One of {@link FEISHU_ROUTES}. */
export type FeishuRoute = (typeof FEISHU_ROUTES)[keyof typeof FEISHU_ROUTES];

/** Every route name, for validating fault rules. */
export const FEISHU_ROUTE_NAMES: readonly FeishuRoute[] = Object.values(FEISHU_ROUTES);

/** A platform error: HTTP status, body `code` and `msg`. */
export interface FeishuError {
  readonly status: number;
  readonly code: number;
  readonly msg: string;
  readonly headers?: Readonly<Record<string, string>>;
}

const business = (code: number, msg: string): FeishuError => ({ status: 400, code, msg });

/** Documented errors (all business errors are HTTP 400 per the IM error tables). */
export const FeishuErrors = {
  /** 230001: bad parameter. */
  invalidParam: (detail?: string) =>
    business(230001, `Your request contains an invalid request parameter.${detail ? ` ${detail}` : ''}`),
  /** 230011: the message was recalled (terminal for that message). */
  recalled: () => business(230011, 'The message is recalled.'),
  /** 230020: per-message (5 updates/s) or per-chat (5 sends/s) frequency limit. */
  frequencyLimit: () => business(230020, 'This operation triggers the frequency limit.'),
  /** 230025: content over 30 KB (card/post) or 150 KB (text). */
  contentTooLong: () => business(230025, 'The length of the message content reaches its limit.'),
  /** 230027: e.g. patching a message another app sent. */
  noPermission: () => business(230027, 'Lack of necessary permissions.'),
  /** 230009: a bot recalls its own messages within the tenant's recall window only (default 24 hours; message/delete doc). */
  recallTooOld: () => business(230009, 'Message can only be recalled within one days.'),
  /** 230026: a bot may recall only messages it sent (message/delete doc). */
  noRecallPermission: () => business(230026, 'No permission to recall this message.'),
  /** 230031: messages can be updated for 14 days only. */
  tooOld: () => business(230031, 'Message can only be modified within 14 days after sending.'),
  /** 230034: receive_id does not fit receive_id_type. */
  invalidReceiveId: () => business(230034, 'The receive_id is invalid.'),
  /** 231003: the message was deleted (seen in openclaw-lark; terminal for that message). */
  deleted: () => business(231003, 'The message is deleted.'),
  /** 230099 with a sub-code inside `msg`, e.g. `ErrCode: 11310; ErrMsg: element exceeds the limit`. */
  cardContent: (subCode: number, errMsg: string, errorValue?: string) =>
    business(
      230099,
      `Failed to create card content, ext=ErrCode: ${subCode}; ErrMsg: ${errMsg};${errorValue !== undefined ? ` ErrorValue: ${errorValue};` : ''} `,
    ),
  /** 99991661: Authorization header missing or not `Bearer <token>` (HTTP status UNCONFIRMED: 400 or 401). */
  needToken: (status: number) => ({ status, code: 99991661, msg: 'Need a token' }),
  /** 99991663: tenant_access_token unknown, expired or revoked (HTTP status UNCONFIRMED: 400 or 401). */
  invalidToken: (status: number) => ({
    status,
    code: 99991663,
    msg: 'Invalid access token for authorization. Please make a request with token attached',
  }),
  /** 230099 / 200570: a card names an `img_key` the platform does not know (or not for this app). */
  invalidImageKey: (imageKey: string) => business(230099, `Failed to create card content, ext=ErrCode: 200570; ErrMsg: invalid image keys; ErrorValue: ${imageKey}; `),
  /** 234001: the image upload's parameters (image_type, image) are invalid (code UNCONFIRMED: image/create error table not in the notes). */
  invalidImage: (detail: string) => business(234001, `Invalid request param. ${detail}`),
  /** 234011: the uploaded bytes are not an image Feishu recognises (code UNCONFIRMED: image/create error table not in the notes). */
  unrecognisedImage: () => business(234011, "Can't recognise image format."),
  /** 231001: `reaction_type.emoji_type` is not a Feishu emoji type (code UNCONFIRMED). */
  invalidReactionType: (emojiType: string) => business(231001, `reaction type is invalid: ${emojiType}`),
  /** 231002 for a reaction that does not exist or another operator added (code UNCONFIRMED). */
  reactionNotFound: () => business(231002, 'The reaction is not found.'),
  /** 10014 unknown app (exact code UNCONFIRMED). */
  appUnauthorized: () => business(10014, 'app unauthorized'),
  /** 10015 wrong app secret (exact code UNCONFIRMED). */
  wrongSecret: () => business(10015, 'wrong app secret'),
  /**
   * 99991400 gateway limit (频控策略): HTTP 429 with `x-ogw-ratelimit-limit` (window limit) and
   * `x-ogw-ratelimit-reset` (seconds until the window has room).
   */
  gatewayLimit: (limit: number, resetSeconds: number): FeishuError => ({
    status: 429,
    code: 99991400,
    msg: 'request trigger frequency limit',
    headers: { 'x-ogw-ratelimit-limit': String(limit), 'x-ogw-ratelimit-reset': String(resetSeconds) },
  }),
} as const;

/**
 * CardKit errors (all HTTP 400): the error tables of the card create, update and settings docs
 * (https://open.larksuite.com/document/uAjLw4CM/ukTMukTMukTM/cardkit-v1/card/update), except where a
 * comment says UNCONFIRMED (seen in open-source Feishu clients only).
 */
export const CardKitErrors = {
  /** 10002: invalid parameter. */
  invalidParam: (detail: string) => business(10002, `invalid param: ${detail}`),
  /** 200220: the card content could not be generated (card JSON unreadable). */
  cardContent: (detail: string) => business(200220, `Failed to generate card content: ${detail}`),
  /** 200740: no card entity with this id. */
  notFound: () => business(200740, 'card not found'),
  /** 200750: the entity is older than 14 days. */
  expired: () => business(200750, 'card is expired'),
  /** 200770: this uuid was used before. */
  uuidConflict: () => business(200770, 'uuid conflict'),
  /** 200860: the card is over 30 KB. */
  tooLarge: () => business(200860, 'card size exceeds the limit'),
  /** 200850: the write that met the end of the streaming window (UNCONFIRMED: openclaw/openclaw#139443). */
  streamingTimeout: () => business(200850, 'card streaming timeout'),
  /** 300309: streaming mode is closed (UNCONFIRMED: openclaw/openclaw#139443, #150634). */
  streamingClosed: () => business(300309, 'streaming mode is closed'),
  /** 300303: only Card JSON 2.0. */
  schemaNotSupported: () => business(300303, 'only schema 2.0 is supported'),
  /** 300305: more than 200 components. */
  tooManyElements: () => business(300305, 'the number of elements exceeds the limit'),
  /** 300311: another app created the entity. */
  noPermission: () => business(300311, 'no permission to operate this card'),
  /** 300313: no component with this element_id (code UNCONFIRMED). */
  elementNotFound: (elementId: string) => business(300313, `element ${elementId} not found`),
  /** 300317: `sequence` not greater than the last accepted one. */
  sequenceNotIncreasing: () => business(300317, 'sequence number compare failed'),
} as const;
