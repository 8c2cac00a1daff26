import type { CallFailure } from '@progresscard/core/plugin';
import { WeComApiError, WeComStreamGoneError, WeComTargetError } from './errors.js';

/**
 * WeCom error codes and what they mean for a card. Only `response_url` posts reach WeCom (the stream
 * is pulled), so these are the codes a post can get:
 * - 846608: the stream passed its 6 minutes (the official plugin's `STREAM_EXPIRED_ERRCODE`,
 *   `@wecom/wecom-openclaw-plugin`; official text UNCONFIRMED) → `gone`;
 * - 45009: "api freq out of limit" (https://developer.work.weixin.qq.com/document/path/90313; its
 *   window for the AI bot is UNCONFIRMED) → `rate-limited`;
 * - 93006 invalid chatid → `target`; 40001/40014 invalid credential → `auth`.
 */
export const WECOM_ERROR_KINDS: Readonly<Record<number, CallFailure['kind']>> = {
  846608: 'gone',
  45009: 'rate-limited',
  93006: 'target',
  40001: 'auth',
  40014: 'auth',
};

/** Maps what the WeCom transport threw to a failure kind. Never throws. */
export function classifyWeComError(error: unknown): CallFailure {
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof WeComStreamGoneError) return { kind: 'gone', detail };
  if (error instanceof WeComTargetError) return { kind: 'target', detail };
  if (error instanceof WeComApiError) {
    if (error.status >= 500) return { kind: 'transient', detail };
    const kind = WECOM_ERROR_KINDS[error.errcode];
    if (kind === 'rate-limited') return { kind, detail };
    if (kind) return { kind, detail };
    return error.status === 429 ? { kind: 'rate-limited', detail } : { kind: 'rejected', detail };
  }
  return { kind: 'transient', detail };
}
