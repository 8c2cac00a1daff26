import { randomUUID } from 'node:crypto';

/**
 * DingTalk error answers as the emulator sends them.
 *
 * Every new-style (`api.dingtalk.com/v1.0/...`) error is a non-2xx status with the JSON envelope
 * `{"requestid","code","message"}` (note the lowercase `requestid`), observed verbatim in
 * satorijs/satori#240; the codes below come from the card API pages and the global error table
 * (open.dingtalk.com/document/development/server-api-error-codes-1).
 */

/** The error body of every v1.0 endpoint. */
export interface DingTalkErrorEnvelope {
  readonly requestid: string;
  readonly code: string;
  readonly message: string;
  /** Only on permission errors (`Forbidden.AccessDenied.AccessTokenPermissionDenied`). */
  readonly accessdenieddetail?: { readonly requiredScopes: readonly string[] };
}

/** An error answer the handlers raise; turned into a response by the server. */
export class DingTalkApiFailure extends Error {
  override readonly name = 'DingTalkApiFailure';
  constructor(
    /** HTTP status. */
    readonly status: number,
    /** Platform code, e.g. `param.cardNotExist`. */
    readonly code: string,
    /** Platform message; defaults to the code, as the card API pages document for `param.*`. */
    message: string = code,
    /** The scopes a permission error names (`accessdenieddetail.requiredScopes`). */
    readonly requiredScopes?: readonly string[],
  ) {
    super(message);
  }
}

/** The message DingTalk sends with `Forbidden.AccessDenied.QpsLimitForAppkeyAndApi` (global error table). */
export const QPS_LIMIT_MESSAGE = '您的企业应用调用钉钉开放平台当前接口的所有请求都被暂时禁用了';

/** The message sent with the monthly quota code (the platform's exact wording is not published; this one says what happened). */
export const MONTHLY_QUOTA_MESSAGE = '企业当月调用量已超出额度 (monthly API call quota of the organisation exceeded)';

/** Ready-made failures for the rules the emulator enforces. */
export const failures = {
  /** 400 `InvalidAuthentication` "不合法的access_token": missing, unknown, revoked or expired token (https://open.dingtalk.com/document/development/server-api-error-codes-1). */
  invalidAuthentication: () => new DingTalkApiFailure(400, 'InvalidAuthentication', '不合法的access_token'),
  /** 400 `invalidClientIdOrSecret` from the token endpoint (https://open.dingtalk.com/document/development/obtain-the-access-token-of-an-internal-app). */
  invalidClientIdOrSecret: () => new DingTalkApiFailure(400, 'invalidClientIdOrSecret', '无效的clientId或者clientSecret'),
  /** 400 `Missingbody`: the body is absent or not JSON (aliyun/alibabacloud-php-sdk#36). */
  missingBody: () => new DingTalkApiFailure(400, 'Missingbody', 'body is mandatory for this action'),
  /** 403 per app and API QPS limit (https://open.dingtalk.com/document/development/how-to-process-api-throttling-on-the-dingtalk-server). */
  qpsLimit: () => new DingTalkApiFailure(403, 'Forbidden.AccessDenied.QpsLimitForAppkeyAndApi', QPS_LIMIT_MESSAGE),
  /** 404 `error.notFound` for an unknown path (https://open.dingtalk.com/document/development/server-api-error-codes-1). */
  notFound: (path: string) => new DingTalkApiFailure(404, 'error.notFound', `接口路径错误 ${path}`),
  /** 400 with `message` equal to `code`, as for every documented `param.*` card error (https://open.dingtalk.com/document/development/create-and-deliver-cards). */
  param: (code: string) => new DingTalkApiFailure(400, code, code),
  /** 400 `param.stream.outTrackId` "card is not exist" (https://open.dingtalk.com/document/development/api-streamingupdate). */
  streamCardNotExist: () => new DingTalkApiFailure(400, 'param.stream.outTrackId', 'card is not exist'),
  /** 500 `unknownError` "未知错误": streaming to a key that is not a streaming variable (soimy#81). */
  unknownError: () => new DingTalkApiFailure(500, 'unknownError', '未知错误'),
  /**
   * 403 `Forbidden.AccessDenied.ApiCountLimitForOrg`: the organisation's monthly call quota is spent
   * (5 000 metered calls a month for standard organisations; token, auth and contacts calls exempt;
   * https://open.dingtalk.com/document/development/how-to-process-api-throttling-on-the-dingtalk-server).
   */
  /**
   * 403 `Forbidden.AccessDenied.AccessTokenPermissionDenied`: the app lacks the route's scope, named
   * in `accessdenieddetail.requiredScopes` (https://open.dingtalk.com/document/orgapp-server/add-api-permission).
   * The message's exact wording is not published; this one says what happened.
   */
  missingScope: (scope: string) =>
    new DingTalkApiFailure(403, 'Forbidden.AccessDenied.AccessTokenPermissionDenied', `没有调用该接口的权限 (the app lacks permission scope ${scope})`, [scope]),
  monthlyQuota: () => new DingTalkApiFailure(403, 'Forbidden.AccessDenied.ApiCountLimitForOrg', MONTHLY_QUOTA_MESSAGE),
  /** 400 `param.stream.content` "content is too large" (https://open.dingtalk.com/document/development/api-streamingupdate). */
  streamContentTooLarge: () => new DingTalkApiFailure(400, 'param.stream.content', 'content is too large'),
} as const;

/** A fresh request id in DingTalk's upper-case UUID style. */
export function newRequestId(): string {
  return randomUUID().toUpperCase();
}

/** Headers DingTalk puts on every answer (alibabacloud-sdk-php/dingtalk PR #1). */
export function dingTalkHeaders(requestId: string): Record<string, string> {
  return {
    'content-type': 'application/json;charset=utf-8',
    server: 'DingTalk/1.0.0',
    'x-acs-request-id': requestId,
    'x-acs-trace-id': requestId.replace(/-/g, '').toLowerCase(),
  };
}

/** The envelope for `failure`. */
export function envelopeOf(failure: DingTalkApiFailure, requestId: string): DingTalkErrorEnvelope {
  return { requestid: requestId, code: failure.code, message: failure.message, ...(failure.requiredScopes && { accessdenieddetail: { requiredScopes: failure.requiredScopes } }) };
}
