import type { Context } from 'hono';
import {
  delay,
  type CallHistory,
  type Clock,
  type FaultInjector,
  type FaultResponse,
  type InFlightTracker,
  countOnArrival,
  type ArrivalCount,
  type SlidingWindowLimiter,
} from '../common/index.js';
import { DingTalkApiFailure, dingTalkHeaders, envelopeOf, failures, newRequestId } from './errors.js';
import { DINGTALK_ROUTE_SCOPES, handle, keyOf, type DingTalkRoute, type HandlerContext, type HandlerResult } from './handlers.js';

/**
 * How one DingTalk call is served, in order:
 * 1. read the JSON body and the card it is about (`outTrackId`; `appKey` on the token route);
 * 2. count it in the fault injector; wait the injected latency; answer an injected response if any;
 * 3. `Missingbody` for no/invalid JSON; the monthly quota (every route but the token); token check (`InvalidAuthentication`); 20 QPS per app per API
 *    (counted when the call arrived, before step 2: the gateway counts incoming requests, so a slow answer must
 *    not move a call into a later window; uncounted again when the call is refused for another reason);
 * 4. the route's logic; record the call (accepted or rejected) and emit the change.
 */
export interface PipelineContext extends HandlerContext {
  readonly faults: FaultInjector;
  readonly history: CallHistory;
  readonly inFlight: InFlightTracker;
  readonly limiter?: SlidingWindowLimiter;
  readonly clock: Clock;
  /** Metered calls allowed (every route but the token); undefined: unlimited. */
  readonly monthlyQuota?: number;
  /** Metered calls so far. */
  readonly metered: { count: number };
  /** Scopes the app lacks (see `DingTalkEmulatorOptions.missingScopes`). */
  readonly missingScopes: ReadonlySet<string>;
  /** Called after an accepted call that changed a card. */
  notify(result: HandlerResult): void;
}

/** Header carrying the access token on every v1.0 route (`x-acs-dingtalk-access-token`, https://open.dingtalk.com/document/development/obtain-the-access-token-of-an-internal-app). */
export const TOKEN_HEADER = 'x-acs-dingtalk-access-token';

function redact(route: DingTalkRoute, body: unknown): unknown {
  if (route !== 'oauth2.accessToken' || typeof body !== 'object' || body === null) return body;
  return { ...(body as Record<string, unknown>), appSecret: '[redacted]' };
}

async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A JSON response with DingTalk's headers. */
export function dingTalkResponse(status: number, body: unknown, requestId: string, extraHeaders?: Readonly<Record<string, string>>): Response {
  return new Response(JSON.stringify(body ?? {}), { status, headers: { ...dingTalkHeaders(requestId), ...extraHeaders } });
}

/** An injected error body gets the `requestid` real answers carry; its `code` is recorded. */
function injected(response: FaultResponse, requestId: string): { body: unknown; code?: string } {
  const body = response.body;
  if (response.status < 400 || typeof body !== 'object' || body === null || Array.isArray(body)) return { body };
  const b = body as Record<string, unknown>;
  return { body: { requestid: requestId, ...b }, code: typeof b.code === 'string' ? b.code : undefined };
}

/** Counts a call in its app's QPS window when it arrives (no window for the token route or an unknown token). */
function countQpsOnArrival(ctx: PipelineContext, c: Context, route: DingTalkRoute): ArrivalCount {
  if (!ctx.limiter || route === 'oauth2.accessToken') return countOnArrival([]);
  let appKey: string;
  try {
    appKey = ctx.tokens.check(c.req.header(TOKEN_HEADER));
  } catch {
    return countOnArrival([]);
  }
  return countOnArrival([[ctx.limiter, `${appKey}\u0000${route}`]]);
}

/** Serves one call of `route`. */
export async function serveDingTalkCall(ctx: PipelineContext, c: Context, route: DingTalkRoute): Promise<Response> {
  const requestId = newRequestId();
  const receivedAt = ctx.clock();
  const arrival = countQpsOnArrival(ctx, c, route);
  let accepted = false;
  const body = await readJson(c);
  const key = keyOf(route, body);
  const record = (status: number, code?: string, result?: HandlerResult, faultId?: string) => {
    const accepted = status >= 200 && status < 300;
    // The common record's `code` is numeric (Feishu codes); DingTalk's string code goes into `msg`.
    ctx.history.record({
      route,
      key,
      receivedAt,
      outcome: accepted ? 'accepted' : 'rejected',
      status,
      code: accepted ? 0 : status,
      msg: code,
      request: redact(route, body),
      card: result?.card,
      faultId,
    });
  };
  const leave = ctx.inFlight.enter(key ?? `route:${route}`);
  try {
    const decision = ctx.faults.onCall(route, key);
    await delay(decision.latencyMs);
    if (decision.response && typeof decision.response.body === 'string') {
      // A non-JSON answer, e.g. the HTML page of the per-IP ban.
      record(decision.response.status, undefined, undefined, decision.responseRuleId);
      return new Response(decision.response.body, { status: decision.response.status, headers: { 'content-type': 'text/html;charset=utf-8', ...decision.response.headers } });
    }
    if (decision.response) {
      const answer = injected(decision.response, requestId);
      record(decision.response.status, answer.code, undefined, decision.responseRuleId);
      return dingTalkResponse(decision.response.status, answer.body, requestId, decision.response.headers);
    }
    try {
      if (body === undefined) throw failures.missingBody();
      if (route !== 'oauth2.accessToken') {
        ctx.metered.count += 1;
        if (ctx.monthlyQuota !== undefined && ctx.metered.count > ctx.monthlyQuota) throw failures.monthlyQuota();
        ctx.tokens.check(c.req.header(TOKEN_HEADER));
        const scope = DINGTALK_ROUTE_SCOPES[route];
        if (scope && ctx.missingScopes.has(scope)) throw failures.missingScope(scope);
        if (arrival.refused) throw failures.qpsLimit();
      }
      const result = handle(ctx, route, body);
      accepted = true;
      record(200, undefined, result);
      if (result.change) ctx.notify(result);
      return dingTalkResponse(200, result.body, requestId);
    } catch (error) {
      if (!(error instanceof DingTalkApiFailure)) throw error;
      record(error.status, error.code);
      return dingTalkResponse(error.status, envelopeOf(error, requestId), requestId);
    }
  } finally {
    if (!accepted) arrival.release();
    leave();
  }
}
