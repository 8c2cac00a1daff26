import type { Context } from 'hono';
import { delay } from '../common/delay.js';
import { randomHex } from '../common/ids.js';
import { countOnArrival, type SlidingWindowLimiter } from '../common/rate-limiter.js';
import { FeishuErrors, type FeishuError, type FeishuRoute } from './codes.js';
import type { FeishuContext } from './context.js';
import { missingScopeError } from './scopes.js';
import type { FeishuChangeKind } from './types.js';

/** The request as a route handler sees it. */
export interface FeishuRequest {
  /** Parsed JSON body; `undefined` when absent or not JSON (`bodyIsJson` false). */
  readonly body: Record<string, unknown> | undefined;
  readonly bodyIsJson: boolean;
  readonly query: Readonly<Record<string, string>>;
  /** App of the bearer token (empty on the token route). */
  readonly appId: string;
  /** 230020 when the call arrived in a full window of the route's own limit ({@link RouteSpec.windows}). */
  readonly limited?: FeishuError;
}

/** What a handler answers. */
export type FeishuOutcome =
  | {
      readonly ok: true;
      /** Body fields besides `code`/`msg` (`data`, or top-level token fields). */
      readonly fields: Record<string, unknown>;
      readonly msg?: string;
      /** The message the call was about (for history). */
      readonly key?: string;
      readonly card?: unknown;
      readonly change?: FeishuChangeKind;
      /** The message the change event is about, when it is not `key` (a card entity sent by reference). */
      readonly changeKey?: string;
    }
  | { readonly ok: false; readonly error: FeishuError; readonly key?: string; readonly card?: unknown };

/** How to run one route. */
export interface RouteSpec {
  readonly route: FeishuRoute;
  /** Checks `Authorization: Bearer` (every route but the token one). */
  readonly auth: boolean;
  /** Message the call is about before it runs (path `message_id`), for faults and in-flight counting. */
  readonly key?: string;
  /** Removes secrets from the body before it is stored in the history. */
  readonly redact?: (body: Record<string, unknown>) => Record<string, unknown>;
  /**
   * The body is `multipart/form-data` (an upload): fields arrive as `body` (a file as
   * {@link UploadedFile}), and the history keeps a file's name, type and size, not its bytes.
   */
  readonly multipart?: boolean;
  /**
   * The route's own rate-limit windows (per chat, message or card entity) the call is counted in when it
   * arrives; the handler answers `limited` (230020) where the platform checks the limit.
   */
  readonly windows?: (request: FeishuRequest) => ReadonlyArray<readonly [SlidingWindowLimiter, string]>;
}

/** A file field of a multipart body. */
export interface UploadedFile {
  readonly name: string;
  readonly type: string;
  readonly bytes: Uint8Array;
}

async function readMultipart(c: Context): Promise<{ body: Record<string, unknown>; stored: Record<string, unknown> } | undefined> {
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) return undefined;
  try {
    const form = await c.req.parseBody();
    const body: Record<string, unknown> = {};
    const stored: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(form)) {
      if (typeof value === 'string') body[name] = stored[name] = value;
      else if (value instanceof Blob) {
        const bytes = new Uint8Array(await value.arrayBuffer());
        const file = { name: (value as File).name ?? '', type: value.type, bytes };
        body[name] = file;
        stored[name] = { name: file.name, type: file.type, size: bytes.length };
      }
    }
    return { body, stored };
  } catch {
    return undefined;
  }
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/**
 * The message APIs limit the request body, not only the card: "请求体最大不能超过 30 KB"
 * (https://open.feishu.cn/document/server-docs/im-v1/message/create). The card travels JSON-escaped in
 * `content`, so a card under 30 KB can still make a body over it → 230025.
 */
const MAX_MESSAGE_BODY_BYTES = 30 * 1024;

/**
 * Runs one call: counts it for fault rules and applies injected latency/answers, checks the token,
 * applies the per-app gateway limit, runs the handler, records the call and emits the change.
 * Fault rules are consulted first, so an injected answer replaces even the auth check.
 * The call is counted in its rate-limit windows (the gateway's per app and API, the route's own) when it
 * arrives, before the injected latency: the platform counts incoming requests, and a slow answer must not
 * move a call into a later window. A call refused for another reason is uncounted again.
 */
export async function runCall(
  ctx: FeishuContext,
  c: Context,
  spec: RouteSpec,
  handler: (request: FeishuRequest) => FeishuOutcome,
): Promise<Response> {
  const receivedAt = ctx.clock();
  const leave = spec.key !== undefined ? ctx.inFlight.enter(spec.key) : () => {};
  let arrival = countOnArrival([]);
  let routeArrival = countOnArrival([]);
  let accepted = false;
  try {
    const form = spec.multipart ? await readMultipart(c) : undefined;
    const raw = spec.multipart ? '' : await c.req.text();
    let body: Record<string, unknown> | undefined = form?.body;
    let bodyIsJson = raw === '' && (!spec.multipart || form !== undefined);
    if (!spec.multipart) {
      try {
        const parsed: unknown = raw === '' ? undefined : JSON.parse(raw);
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
          body = parsed as Record<string, unknown>;
          bodyIsJson = true;
        }
      } catch {
        bodyIsJson = false;
      }
    }
    const stored = form ? form.stored : body && spec.redact ? spec.redact(body) : body;
    const logId = `${new Date(ctx.clock()).toISOString().replace(/\D/g, '').slice(0, 14)}${randomHex(18).toUpperCase()}`;

    const arrivedAs = spec.auth ? ctx.tokens.verify(c.req.header('authorization'), ctx.authErrorStatus) : undefined;
    if (arrivedAs && !('error' in arrivedAs)) {
      arrival = countOnArrival([[ctx.appLimiter, `${spec.route}:${arrivedAs.appId}`]]);
      if (!arrival.refused && spec.windows) routeArrival = countOnArrival(spec.windows({ body: body ?? {}, bodyIsJson, query: c.req.query(), appId: arrivedAs.appId }));
    }

    const decision = ctx.faults.onCall(spec.route, spec.key);
    await delay(decision.latencyMs);
    if (decision.response) {
      const r = decision.response;
      const code = typeof (r.body as { code?: unknown } | undefined)?.code === 'number' ? (r.body as { code: number }).code : -1;
      const msg = (r.body as { msg?: unknown } | undefined)?.msg;
      ctx.history.record({
        route: spec.route, key: spec.key, outcome: 'rejected', status: r.status, code,
        msg: typeof msg === 'string' ? msg : undefined, request: stored, faultId: decision.responseRuleId, receivedAt,
      });
      return new Response(r.body === undefined ? '' : JSON.stringify(r.body), {
        status: r.status,
        headers: { ...JSON_HEADERS, 'x-tt-logid': logId, ...r.headers },
      });
    }

    let outcome: FeishuOutcome;
    const auth = spec.auth ? ctx.tokens.verify(c.req.header('authorization'), ctx.authErrorStatus) : { appId: '' };
    if ('error' in auth) outcome = { ok: false, error: auth.error, key: spec.key };
    else {
      const scopeError = spec.auth ? missingScopeError(spec.route, ctx.missingScopes) : undefined;
      const limited = arrival.refused;
      if (scopeError) outcome = { ok: false, key: spec.key, error: scopeError };
      else if (limited)
        outcome = { ok: false, key: spec.key, error: FeishuErrors.gatewayLimit(limited.window.limit, Math.ceil(limited.retryAfterMs / 1000)) };
      else if (!bodyIsJson) outcome = { ok: false, key: spec.key, error: FeishuErrors.invalidParam(spec.multipart ? 'request body is not multipart/form-data' : 'request body is not a JSON object') };
      else if (spec.route.startsWith('im.message.') && Buffer.byteLength(raw, 'utf8') > MAX_MESSAGE_BODY_BYTES)
        outcome = { ok: false, key: spec.key, error: FeishuErrors.contentTooLong() };
      else outcome = handler({ body: body ?? {}, bodyIsJson, query: c.req.query(), appId: auth.appId, limited: routeArrival.refused && FeishuErrors.frequencyLimit() });
    }

    if (outcome.ok) {
      accepted = true;
      ctx.history.record({
        route: spec.route, key: outcome.key, outcome: 'accepted', status: 200, code: 0,
        msg: outcome.msg ?? 'success', request: stored, card: outcome.card, receivedAt,
      });
      const changed = outcome.changeKey ?? outcome.key;
      if (outcome.change && changed) ctx.notify(outcome.change, changed);
      return new Response(JSON.stringify({ code: 0, msg: outcome.msg ?? 'success', ...outcome.fields }), {
        status: 200,
        headers: { ...JSON_HEADERS, 'x-tt-logid': logId },
      });
    }
    const { error } = outcome;
    ctx.history.record({
      route: spec.route, key: outcome.key, outcome: 'rejected', status: error.status, code: error.code,
      msg: error.msg, request: stored, card: outcome.card, receivedAt,
    });
    const troubleshooter = `排查建议查看（Troubleshooting suggestions）： https://open.feishu.cn/search?from=openapi&log_id=${logId}&code=${error.code}`;
    return new Response(JSON.stringify({ code: error.code, msg: error.msg, error: { log_id: logId, troubleshooter } }), {
      status: error.status,
      headers: { ...JSON_HEADERS, 'x-tt-logid': logId, ...error.headers },
    });
  } finally {
    if (!accepted) {
      arrival.release();
      routeArrival.release();
    }
    leave();
  }
}
