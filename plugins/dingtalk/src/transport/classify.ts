import type { CallFailure } from '@progresscard/core/plugin';
import { DingTalkApiError, DingTalkDeliveryError, DingTalkNetworkError, DingTalkStreamingRefusedError, DingTalkTargetError } from './errors.js';
import { IP_BANNED_CODE, NOT_JSON_CODE, RESULT_FALSE_CODE } from './http.js';

/**
 * Wait after a per-second QPS answer: the doc advises waiting out the 1 s window (https://open.dingtalk.com/document/development/how-to-process-api-throttling-on-the-dingtalk-server);
 * the DingTalk-Real-AI connector (`src/services/messaging/card.ts`) and hermes-agent back off 2 s.
 */
const QPS_RETRY_AFTER_MS = 2000;
/** Wait after a per-minute (QPM) answer: the window's length (its size is not published, https://open.dingtalk.com/document/development/how-to-process-api-throttling-on-the-dingtalk-server). */
const QPM_RETRY_AFTER_MS = 60_000;

/** Wait after the per-IP ban answer: the ban lasts 5 minutes (https://open.dingtalk.com/document/development/how-to-process-api-throttling-on-the-dingtalk-server). */
const IP_BAN_RETRY_AFTER_MS = 5 * 60_000;

/**
 * Code of the spent monthly quota: standard organisations get 5 000 metered calls a month (token,
 * auth and contacts calls exempt); past it every call answers 403 with this code until the month ends
 * (https://open.dingtalk.com/document/development/how-to-process-api-throttling-on-the-dingtalk-server).
 */
const MONTHLY_QUOTA_CODE = 'Forbidden.AccessDenied.ApiCountLimitForOrg';

/**
 * Codes meaning "this card no longer exists": `param.cardNotExist`
 * (https://open.dingtalk.com/document/development/interactive-card-update-interface), `cardInstance.notExist`,
 * `param.stream.outTrackId` (https://open.dingtalk.com/document/development/api-streamingupdate).
 */
const GONE_CODES: ReadonlySet<string> = new Set(['param.cardNotExist', 'cardInstance.notExist', 'param.stream.outTrackId']);

/**
 * Codes meaning "this card's target cannot be reached", which no retry changes: the group's
 * `invalid.openConversationId`, `group.disbanded`, `bot.stopped` (robot messaging errors,
 * https://open.dingtalk.com/document/orgapp/the-robot-sends-a-group-message) and the card API's
 * `param.openSpaceIdInvalid` (https://open.dingtalk.com/document/development/create-and-deliver-cards).
 */
const TARGET_CODES: ReadonlySet<string> = new Set(['invalid.openConversationId', 'group.disbanded', 'bot.stopped', 'param.openSpaceIdInvalid']);

/**
 * The app lacks a permission scope of this API: 403 with this code and the scopes in
 * `accessdenieddetail.requiredScopes` (https://open.dingtalk.com/document/orgapp-server/add-api-permission).
 */
export const MISSING_SCOPE_CODE = 'Forbidden.AccessDenied.AccessTokenPermissionDenied';

/** Codes meaning "the token is bad": `InvalidAuthentication` (HTTP 400, https://open.dingtalk.com/document/development/server-api-error-codes-1), the generic 401 `Unauthorized`. */
const AUTH_CODES: ReadonlySet<string> = new Set(['InvalidAuthentication', 'Unauthorized', 'invalidClientIdOrSecret', 'accesstoken.expired']);

/**
 * `errorMsg`s of a failed delivery that say DingTalk's side failed (worth a retry); the published
 * docs list no `errorMsg` values, so this split is UNCONFIRMED: any other reason (the bot not in
 * the group, a space it cannot reach) is taken as one that the same delivery meets again.
 */
const TRANSIENT_DELIVERY_ERROR = /system|busy|timeout|internal|unknown|retry/i;

/**
 * A card created but not in the chat (`deliverResults[].success: false` in an HTTP 200, reason in
 * `errorMsg`): `target` (fail fast, like Feishu 230002 or Slack `not_in_channel`) unless every
 * reason reads as DingTalk's own trouble, or no results came at all (`transient`).
 */
function deliveryFailureKind(error: DingTalkDeliveryError): 'target' | 'transient' {
  if (error.failed.length === 0) return 'transient';
  return error.failed.every((failure) => TRANSIENT_DELIVERY_ERROR.test(failure.errorMsg ?? 'unknown')) ? 'transient' : 'target';
}

/**
 * Maps what the DingTalk transport threw to the core's failure kinds. Never throws.
 * - 403 `Forbidden.AccessDenied.QpsLimitForAppkeyAndApi` / `QpsLimitForApi` (any `QpsLimit` code) →
 *   `rate-limited`, 2 s, the whole channel (the limit is per app, https://open.dingtalk.com/document/development/how-to-process-api-throttling-on-the-dingtalk-server); `QpmLimit…` → 60 s; HTTP 429 → 2 s;
 * - 403 `Forbidden.AccessDenied.ApiCountLimitForOrg` (the monthly quota) → `quota`;
 * - the per-IP ban answer → `rate-limited`, 5 min, the whole channel;
 * - a 2xx saying `result: false`, or an answer that is not JSON → `transient` (not applied; try again);
 * - 400 `param.cardNotExist` (and `cardInstance.notExist`) → `gone`;
 * - `invalid.openConversationId`, `group.disbanded`, `bot.stopped`, `param.openSpaceIdInvalid`, or no
 *   usable target → `target` (the card's final is tried once; other cards go on);
 * - 403 `Forbidden.AccessDenied.AccessTokenPermissionDenied` → `missing-scope`, naming `requiredScopes`;
 * - `InvalidAuthentication` (400), 401 → `auth`;
 * - a card created but not delivered (`deliverResults[].success: false` in a 200, the reason in
 *   `errorMsg`) → `target` (the card's final is tried once, as for Feishu 230002 or Slack
 *   `not_in_channel`), `transient` when the reason is DingTalk's side or no results came (see {@link deliveryFailureKind});
 * - the streaming API refused for its scope with a card-data template configured → `gone` (a fresh card replaces it);
 * - 408, 5xx, timeouts, network errors → `transient`;
 * - any other 4xx (`param.invalid`, `param.contentUnsafe`…) → `rejected`.
 */
export function classifyDingTalkError(error: unknown): CallFailure {
  if (error instanceof DingTalkApiError) {
    const code = error.code ?? '';
    const detail = error.message;
    if (code === MONTHLY_QUOTA_CODE) return { kind: 'quota', detail };
    if (code === IP_BANNED_CODE) return { kind: 'rate-limited', retryAfterMs: IP_BAN_RETRY_AFTER_MS, scope: 'channel', detail };
    if (code === RESULT_FALSE_CODE || code === NOT_JSON_CODE) return { kind: 'transient', detail };
    if (code.includes('QpsLimit')) return { kind: 'rate-limited', retryAfterMs: QPS_RETRY_AFTER_MS, scope: 'channel', detail };
    if (code.includes('QpmLimit')) return { kind: 'rate-limited', retryAfterMs: QPM_RETRY_AFTER_MS, scope: 'channel', detail };
    if (error.status === 429) return { kind: 'rate-limited', retryAfterMs: QPS_RETRY_AFTER_MS, scope: 'channel', detail };
    if (GONE_CODES.has(code)) return { kind: 'gone', detail };
    if (TARGET_CODES.has(code)) return { kind: 'target', detail };
    if (code === MISSING_SCOPE_CODE) return { kind: 'missing-scope', scope: error.requiredScopes?.join(', '), detail };
    if (AUTH_CODES.has(code) || error.status === 401) return { kind: 'auth', detail };
    if (error.status >= 500 || error.status === 408) return { kind: 'transient', detail };
    if (error.status >= 400) return { kind: 'rejected', detail };
    return { kind: 'transient', detail };
  }
  if (error instanceof DingTalkStreamingRefusedError) return { kind: 'gone', detail: error.message };
  if (error instanceof DingTalkDeliveryError) return { kind: deliveryFailureKind(error), detail: error.message };
  if (error instanceof DingTalkNetworkError) return { kind: 'transient', detail: error.message };
  if (error instanceof DingTalkTargetError) return { kind: 'target', detail: error.message };
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { kind: 'transient', detail };
}
