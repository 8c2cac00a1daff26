import type { CallFailure } from '@progresscard/core/plugin';

/** A Feishu answer with a non-zero `code` (the SDK resolves HTTP 200 answers instead of throwing). */
export class FeishuApiError extends Error {
  override readonly name = 'FeishuApiError';
  constructor(
    readonly status: number,
    readonly code: number,
    readonly msg: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(`feishu HTTP ${status} code ${code}: ${msg}`);
  }
}

/** The plugin refused to send something itself (a card over the limits, no receiver). */
export class FeishuLocalError extends Error {
  override readonly name = 'FeishuLocalError';
  constructor(message: string, readonly kind: 'rejected' | 'target' | 'gone' = 'rejected') {
    super(message);
  }
}

/**
 * The message or card can no longer be edited: 230011 recalled, 231003 deleted, 230031 older than
 * 14 days; CardKit 200740 no such card entity, 200750 entity older than 14 days
 * (https://open.larksuite.com/document/uAjLw4CM/ukTMukTMukTM/cardkit-v1/card/update).
 */
const GONE_CODES: ReadonlySet<number> = new Set([230011, 231003, 230031, 200740, 200750]);
/**
 * CardKit answers worth a later retry: 200810 the card is in an ongoing interaction, 300317
 * `sequence` did not increase (card update doc); 200850 streaming timeout and 300309 streaming mode
 * closed (seen by open-source clients, e.g. openclaw/openclaw#139443), which the transport answers by
 * reopening streaming or a full update before they would reach the core.
 */
const CARDKIT_TRANSIENT_CODES: ReadonlySet<number> = new Set([200810, 300317, 200850, 300309]);
/** 200850 / 300309: the entity's streaming mode is closed (its window ran out). */
export const STREAMING_CLOSED_CODES: ReadonlySet<number> = new Set([200850, 300309]);
/** 300317: the `sequence` was not above the entity's last one. */
export const SEQUENCE_CODE = 300317;
/**
 * Token problems: 99991661 no/malformed header, 99991663 invalid or expired tenant_access_token,
 * 99991664/99991665/99991668/99991671 other token errors, 10014/10015/99991543 bad app credentials.
 */
const AUTH_CODES: ReadonlySet<number> = new Set([99991661, 99991663, 99991664, 99991665, 99991668, 99991671, 10014, 10015, 99991543]);
/**
 * The receiver cannot be reached and no retry changes that (message/create error codes,
 * https://open.feishu.cn/document/server-docs/im-v1/message/create): 230002 the bot is not in the
 * chat, 230013 the bot has no availability to the user (also a user who left), 230034 the
 * receive_id is invalid; 230001 (invalid parameter) only when its msg names the receive_id.
 */
const TARGET_CODES: ReadonlySet<number> = new Set([230002, 230013, 230034]);
const INVALID_PARAMETER_CODE = 230001;

/**
 * 99991672: the app lacks a permission scope of this API; `msg` names them: "Access denied. One of
 * the following scopes is required: [cardkit:card:write]." (common error codes,
 * https://open.feishu.cn/document/server-docs/getting-started/server-error-codes).
 */
const MISSING_SCOPE_CODE = 99991672;

/** The scopes a 99991672 answer names, comma-separated as Feishu lists them; undefined when it names none. */
function scopesNamedIn(msg: string | undefined): string | undefined {
  const listed = /\[([^\]]+)\]/.exec(msg ?? '')?.[1]?.trim();
  return listed ? listed.split(/\s*,\s*/).join(', ') : undefined;
}

/** 230020: 5 updates/s per message or 5 sends/s per chat. */
const MESSAGE_RATE_LIMIT_CODE = 230020;
/** 99991400: gateway limit per app (50/s, 1000/min), HTTP 429 (400 on old APIs). */
const APP_RATE_LIMIT_CODE = 99991400;

const NETWORK_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'ERR_NETWORK', 'ERR_CANCELED', 'UND_ERR_SOCKET']);

interface Answer {
  readonly status?: number;
  readonly code?: number;
  readonly msg?: string;
  readonly headers: Readonly<Record<string, unknown>>;
}

/** Status, body code and headers of whatever was thrown: our own errors, the SDK's axios errors, its token error. */
function answerOf(error: unknown): Answer | undefined {
  if (error instanceof FeishuApiError) return { status: error.status, code: error.code, msg: error.msg, headers: error.headers };
  const response = (error as { response?: { status?: unknown; data?: unknown; headers?: unknown } } | null)?.response;
  if (response && typeof response === 'object') {
    const data = (response.data ?? {}) as { code?: unknown; msg?: unknown };
    return {
      status: typeof response.status === 'number' ? response.status : undefined,
      code: typeof data.code === 'number' ? data.code : undefined,
      msg: typeof data.msg === 'string' ? data.msg : undefined,
      headers: (response.headers ?? {}) as Record<string, unknown>,
    };
  }
  // SDK token manager on an HTTP 200 answer without a token: "failed to get tenant_access_token, code: 10015, msg: …"
  const message = error instanceof Error ? error.message : '';
  const token = /tenant_access_token.*code:\s*(-?\d+)(?:,\s*msg:\s*(.*))?/i.exec(message);
  if (token) return { status: 200, code: Number(token[1]), msg: token[2] ?? 'token request failed', headers: {} };
  return undefined;
}

function header(headers: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = (headers as { get?: (n: string) => unknown }).get?.(name) ?? headers[name] ?? headers[name.toLowerCase()];
  return value === undefined || value === null ? undefined : String(value);
}

/**
 * Maps what the transport threw to the core's failure kinds, looking at the body `code` as well as
 * the HTTP status (Feishu answers business errors with HTTP 400, and some with HTTP 200):
 * - 230020 → `rate-limited` (this card, 1 s); HTTP 429 / 99991400 → `rate-limited` (the whole channel,
 *   for `x-ogw-ratelimit-reset` seconds);
 * - 230011, 231003, 230031, 200740, 200750 → `gone`;
 * - 200810, 300317, 200850, 300309 (CardKit) → `transient`;
 * - 230002, 230013, 230034 (and 230001 naming the receive_id) → `target`;
 * - 99991672 (a permission scope missing) → `missing-scope`, naming the scope;
 * - token / credential codes, HTTP 401 → `auth`;
 * - HTTP 5xx, timeouts, network errors, anything unknown → `transient`;
 * - other codes (230001, 230025, 230099 with its sub-code…) → `rejected`.
 * Never throws; `detail` holds status, code and the platform's msg, never a token or secret.
 */
export function classifyFeishuError(error: unknown): CallFailure {
  if (error instanceof FeishuLocalError) return { kind: error.kind, detail: error.message };
  const answer = answerOf(error);
  if (!answer) {
    const code = (error as { code?: unknown } | null)?.code;
    const name = typeof code === 'string' ? code : error instanceof Error ? error.name : typeof error;
    const timeout = code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(error instanceof Error ? error.message : '');
    const what = timeout ? 'timeout' : typeof code === 'string' && NETWORK_CODES.has(code) ? 'network error' : 'unexpected error';
    return { kind: 'transient', detail: `feishu ${what} (${name})` };
  }
  const { status, code, msg } = answer;
  const detail = `feishu HTTP ${status ?? '?'} code ${code ?? '?'}${msg ? `: ${msg.slice(0, 300)}` : ''}`;
  if (code === MESSAGE_RATE_LIMIT_CODE) return { kind: 'rate-limited', scope: 'card', retryAfterMs: 1000, detail };
  if (status === 429 || code === APP_RATE_LIMIT_CODE) {
    const reset = Number(header(answer.headers, 'x-ogw-ratelimit-reset'));
    return { kind: 'rate-limited', scope: 'channel', retryAfterMs: Number.isFinite(reset) && reset > 0 ? reset * 1000 : undefined, detail };
  }
  if (code !== undefined && GONE_CODES.has(code)) return { kind: 'gone', detail };
  if (code !== undefined && CARDKIT_TRANSIENT_CODES.has(code)) return { kind: 'transient', detail };
  if ((code !== undefined && TARGET_CODES.has(code)) || (code === INVALID_PARAMETER_CODE && /receive_id/i.test(msg ?? ''))) return { kind: 'target', detail };
  if (code === MISSING_SCOPE_CODE) return { kind: 'missing-scope', scope: scopesNamedIn(msg), detail };
  if ((code !== undefined && AUTH_CODES.has(code)) || status === 401) return { kind: 'auth', detail };
  if (status !== undefined && status >= 500) return { kind: 'transient', detail };
  if (code !== undefined && code !== 0) return { kind: 'rejected', detail };
  if (status !== undefined && status >= 400) return { kind: 'rejected', detail };
  return { kind: 'transient', detail };
}

/** The platform `code` of what the transport threw, when it carried one. */
export function feishuCodeOf(error: unknown): number | undefined {
  return answerOf(error)?.code;
}

/**
 * True when Feishu refused a card for an image key it does not know (230099 with sub-code 200570,
 * "invalid image keys", message/create error table); the transport then shows those images as text
 * and sends the card again.
 */
export function isInvalidImageKeyError(error: unknown): boolean {
  const answer = answerOf(error);
  return answer?.code === 230099 && /\b200570\b/.test(answer.msg ?? '');
}

/**
 * True when Feishu refused a card entity sent by reference as invalid: 230099 with sub-code 11310
 * "cardid is invalid" (message/create error table; seen intermittently on a freshly created entity,
 * zarazhangrui/lark-coding-agent-bridge#163, Cheerwhy/hermes-lark-streaming#96). Sending the same
 * card_id again keeps failing; a new entity, or a plain card, is accepted.
 */
export function isInvalidCardIdError(error: unknown): boolean {
  const answer = answerOf(error);
  return answer?.code === 230099 && /\b11310\b/.test(answer.msg ?? '') && /card_?id is invalid/i.test(answer.msg ?? '');
}

/** The scopes named by a 99991672 answer (the app lacks them), or undefined when `error` is not one. */
export function missingScopeOf(error: unknown): { scope: string | undefined } | undefined {
  const answer = answerOf(error);
  return answer?.code === MISSING_SCOPE_CODE ? { scope: scopesNamedIn(answer.msg) } : undefined;
}
