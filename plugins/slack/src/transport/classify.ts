import type { CallFailure } from '@progresscard/core/plugin';
import { ErrorCode } from '@slack/web-api';

/** The plugin refused to send something itself (a message over the Block Kit limits). */
export class SlackLocalError extends Error {
  override readonly name = 'SlackLocalError';
}

/**
 * Slack `error` strings by failure kind (errors of https://api.slack.com/methods/chat.postMessage and
 * https://api.slack.com/methods/chat.update; tokens: https://api.slack.com/authentication/token-types):
 * the message can no longer be edited → `gone`; the token → `auth`; Slack's side → `transient`; the
 * channel cannot be reached (`channel_not_found`, `not_in_channel`, `is_archived`) → `target`, as no
 * retry can change that. Everything else (`msg_too_long`, `invalid_blocks`, …) → `rejected`.
 */
export const SLACK_ERROR_KINDS: Readonly<Record<string, CallFailure['kind']>> = {
  message_not_found: 'gone',
  cant_update_message: 'gone',
  edit_window_closed: 'gone',
  not_authed: 'auth',
  invalid_auth: 'auth',
  token_revoked: 'auth',
  token_expired: 'auth',
  account_inactive: 'auth',
  internal_error: 'transient',
  fatal_error: 'transient',
  service_unavailable: 'transient',
  request_timeout: 'transient',
  channel_not_found: 'target',
  not_in_channel: 'target',
  is_archived: 'target',
  // Streams (https://docs.slack.dev/reference/methods/chat.appendStream, Errors): a stream past its
  // life (about 5 min, or stopped) takes no more calls; the user's own Stop ends the run.
  message_not_in_streaming_state: 'stream-ended',
  stopped_by_user: 'stopped-by-user',
  message_not_owned_by_app: 'gone',
  streaming_state_conflict: 'transient',
};

/** The Web API method each failed call of a method with a budget key of its own went to (see {@link ownLimit}). */
const methodOf = new WeakMap<object, string>();

/**
 * Runs a call of Slack Web API `method`, whose rate limit is the method's own: Slack counts "per API
 * method per app per workspace" (https://docs.slack.dev/apis/web-api/rate-limits). A 429 it gets is
 * classified with `scope: 'method'`, so the core pauses the budget keys of the operation that made
 * the call (chat.update's key for an update; chat.postMessage's and the channel's posting keys for a
 * send; a stream method's own key) and not the others. Every call the plugin makes goes through it.
 */
export async function ownLimit<T>(method: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (typeof error === 'object' && error !== null) methodOf.set(error, method);
    throw error;
  }
}

interface SlackLikeError {
  readonly code?: unknown;
  readonly retryAfter?: unknown;
  readonly data?: { readonly error?: unknown; readonly needed?: unknown };
  readonly statusCode?: unknown;
  readonly original?: { readonly code?: unknown; readonly name?: unknown; readonly message?: unknown };
}

/**
 * Maps what `@slack/web-api` threw to the core's failure kinds:
 * - `ratelimited` (HTTP 429, thrown as a rate-limited error because the client is built with
 *   `rejectRateLimitedCalls`) → `rate-limited` after `Retry-After` seconds. Slack counts "per API
 *   method per app per workspace" (https://docs.slack.dev/apis/web-api/rate-limits), not per message:
 *   a call made through {@link ownLimit} (every call of the plugin) is scoped to its `method` (only
 *   the keys that call drew from are paused: a 429 on chat.update does not hold a new card's
 *   chat.postMessage, a stream start turned away does not hold the card's post); an error thrown
 *   elsewhere (no method known) pauses the whole channel;
 * - `missing_scope` → `missing-scope`, naming the `needed` scope;
 * - platform errors by {@link SLACK_ERROR_KINDS}, anything else `rejected`;
 * - HTTP 5xx, timeouts and network errors → `transient`; HTTP 401/403 → `auth`.
 * Never throws; `detail` holds the error string or status (and, for a `target` failure, the
 * `channel` the call went to), never the token.
 */
export function classifySlackError(error: unknown, channel?: string): CallFailure {
  if (error instanceof SlackLocalError) return { kind: 'rejected', detail: error.message };
  const e = (error ?? {}) as SlackLikeError;
  const method = typeof error === 'object' && error !== null ? methodOf.get(error) : undefined;
  const scope = method === undefined ? 'channel' : 'method';
  const of = method === undefined ? '' : ` on ${method}`;
  switch (e.code) {
    case ErrorCode.RateLimitedError: {
      const seconds = Number(e.retryAfter);
      return { kind: 'rate-limited', scope, retryAfterMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined, detail: `slack ratelimited${of} (Retry-After ${String(e.retryAfter)} s)` };
    }
    case ErrorCode.PlatformError: {
      const name = typeof e.data?.error === 'string' ? e.data.error : 'unknown_error';
      if (name === 'ratelimited') return { kind: 'rate-limited', scope, detail: `slack ratelimited${of}` };
      // The token lacks a scope; Slack names it in `needed` (https://docs.slack.dev/reference/methods/chat.postMessage#errors).
      if (name === 'missing_scope') {
        const needed = typeof e.data?.needed === 'string' ? e.data.needed : undefined;
        return { kind: 'missing-scope', scope: needed, detail: `slack error missing_scope${needed ? ` (needed: ${needed})` : ''}` };
      }
      const kind = SLACK_ERROR_KINDS[name] ?? 'rejected';
      if (kind === 'target') return { kind, detail: `slack channel ${channel ?? '(unknown)'} cannot be reached: ${name}` };
      return { kind, detail: `slack error ${name}` } as CallFailure;
    }
    case ErrorCode.HTTPError: {
      const status = Number(e.statusCode);
      const detail = `slack HTTP ${String(e.statusCode)}`;
      if (status === 401 || status === 403) return { kind: 'auth', detail };
      if (status === 429) return { kind: 'rate-limited', scope, detail: `${detail}${of}` };
      if (status >= 500) return { kind: 'transient', detail };
      return { kind: 'rejected', detail };
    }
    case ErrorCode.RequestError: {
      const cause = e.original;
      const name = typeof cause?.code === 'string' ? cause.code : typeof cause?.name === 'string' ? cause.name : 'request error';
      return { kind: 'transient', detail: `slack request failed (${name})` };
    }
    default:
      return { kind: 'transient', detail: `slack unexpected error (${error instanceof Error ? error.name : typeof error})` };
  }
}
