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
