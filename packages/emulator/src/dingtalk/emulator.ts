import { Hono, type Context } from 'hono';
import {
  CallHistory,
  ChangeFeed,
  FaultInjector,
  InFlightTracker,
  SlidingWindowLimiter,
  delay,
  listen,
  systemClock,
  type CallRecord,
  type FaultResponse,
} from '../common/index.js';
import { DingTalkCardStore } from './card-store.js';
import { DingTalkApiFailure, dingTalkHeaders, envelopeOf, failures, newRequestId } from './errors.js';
import {
  DELIVERY_ROUTE,
  DINGTALK_ROUTES,
  DINGTALK_ROUTE_NAMES,
  handle,
  keyOf,
  type DingTalkRoute,
  type HandlerContext,
  type HandlerResult,
} from './handlers.js';
import { DEFAULT_DINGTALK_APP, DingTalkTokenRegistry } from './tokens.js';
import type { DingTalkCallRecord, DingTalkCardChange, DingTalkEmulator, DingTalkEmulatorOptions } from './types.js';

/** Default per app, per API limit: 20 calls per second (DingTalk "how to process API throttling"). */
export const DINGTALK_DEFAULT_RATE_LIMIT = [{ limit: 20, intervalMs: 1000 }] as const;

const TOKEN_HEADER = 'x-acs-dingtalk-access-token';
/** Delivery-fault ids are prefixed so they never collide with route fault ids. */
const DELIVERY_ID_PREFIX = 'delivery:';

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

/**
 * Starts a loopback emulator of the DingTalk card APIs: token, createAndDeliver, create, deliver,
 * instance update and streaming, with the documented validation, error envelopes, the 20 QPS per app
 * per API limit, fault injection and read-back. Several emulators (and the Feishu one) can run side by side.
 *
 * @throws the listen error when the port is taken.
 */
export async function startDingTalkEmulator(options: DingTalkEmulatorOptions = {}): Promise<DingTalkEmulator> {
  const clock = options.clock ?? systemClock;
  const store = new DingTalkCardStore();
  const tokens = new DingTalkTokenRegistry(options.apps ?? [DEFAULT_DINGTALK_APP], clock, options.tokenTtlSeconds);
  const faults = new FaultInjector(clock, DINGTALK_ROUTE_NAMES);
  const deliveryFaults = new FaultInjector(clock, [DELIVERY_ROUTE]);
  const history = new CallHistory(clock);
  const changes = new ChangeFeed<DingTalkCardChange>();
  const inFlight = new InFlightTracker();
  const windows = options.rateLimit === false ? undefined : (options.rateLimit ?? DINGTALK_DEFAULT_RATE_LIMIT);
  const limiter = windows && new SlidingWindowLimiter(windows, clock);
  const ctx: HandlerContext = {
    store,
    tokens,
    clock,
    deliveryFaults,
    knownTemplates: options.templates && new Set(options.templates),
    streamingKeys: options.streamingKeys && new Set(options.streamingKeys),
    maxStreamingContentChars: options.maxStreamingContentChars,
  };

  function respond(status: number, body: unknown, requestId: string, extraHeaders?: Readonly<Record<string, string>>): Response {
    return new Response(JSON.stringify(body ?? {}), { status, headers: { ...dingTalkHeaders(requestId), ...extraHeaders } });
  }

  function record(call: {
    route: DingTalkRoute;
    key?: string;
    status: number;
    code?: string;
    request: unknown;
    receivedAt: number;
    result?: HandlerResult;
    faultId?: string;
  }): void {
    // The common record's `code` is numeric (Feishu); DingTalk codes are strings, kept in `msg`.
    history.record({
      route: call.route,
      key: call.key,
      receivedAt: call.receivedAt,
      outcome: call.status >= 200 && call.status < 300 ? 'accepted' : 'rejected',
      status: call.status,
      code: call.status >= 200 && call.status < 300 ? 0 : call.status,
      msg: call.code,
      request: redact(call.route, call.request),
      card: call.result?.card,
      faultId: call.faultId,
    });
    if (call.result?.change && call.result.card) changes.emit({ kind: call.result.change, card: call.result.card, at: clock() });
  }

  function injected(response: FaultResponse, requestId: string): { body: unknown; code?: string } {
    const body = response.body;
    if (response.status < 400 || typeof body !== 'object' || body === null || Array.isArray(body)) return { body };
    const b = body as Record<string, unknown>;
    return { body: { requestid: requestId, ...b }, code: typeof b.code === 'string' ? b.code : undefined };
  }

  async function serveRoute(c: Context, route: DingTalkRoute): Promise<Response> {
    const requestId = newRequestId();
    const receivedAt = clock();
    const body = await readJson(c);
    const key = keyOf(route, body);
    const leave = inFlight.enter(key ?? `route:${route}`);
    try {
      const decision = faults.onCall(route, key);
      await delay(decision.latencyMs);
      if (decision.response) {
        const answer = injected(decision.response, requestId);
        record({ route, key, status: decision.response.status, code: answer.code, request: body, receivedAt, faultId: decision.responseRuleId });
        return respond(decision.response.status, answer.body, requestId, decision.response.headers);
      }
      try {
        if (body === undefined) throw failures.missingBody();
        if (route !== 'oauth2.accessToken') {
          const appKey = tokens.check(c.req.header(TOKEN_HEADER));
          if (limiter && !limiter.tryAcquire(`${appKey}\u0000${route}`).allowed) throw failures.qpsLimit();
        }
        const result = handle(ctx, route, body);
        record({ route, key, status: 200, request: body, receivedAt, result });
        return respond(200, result.body, requestId);
      } catch (error) {
        if (!(error instanceof DingTalkApiFailure)) throw error;
        record({ route, key, status: error.status, code: error.code, request: body, receivedAt });
        return respond(error.status, envelopeOf(error, requestId), requestId);
      }
    } finally {
      leave();
    }
  }

  const app = new Hono();
  for (const route of DINGTALK_ROUTE_NAMES) {
    const { method, path } = DINGTALK_ROUTES[route];
    app.on(method, path, (c) => serveRoute(c, route));
  }
  app.notFound((c) => {
    const requestId = newRequestId();
    return respond(404, envelopeOf(failures.notFound(c.req.path), requestId), requestId);
  });
  app.onError((error, c) => {
    const requestId = newRequestId();
    const failure = new DingTalkApiFailure(500, 'system.busy', `system.busy: ${error instanceof Error ? error.message : String(error)}`);
    return respond(500, envelopeOf(failure, requestId), requestId, { 'x-emulator-path': c.req.path });
  });

  const server = await listen(app, { host: options.host, port: options.port });

  const toDingTalk = (r: CallRecord): DingTalkCallRecord => ({
    seq: r.seq,
    receivedAt: r.receivedAt,
    at: r.at,
    route: r.route as DingTalkRoute,
    key: r.key,
    outcome: r.outcome,
    status: r.status,
    code: r.outcome === 'rejected' ? r.msg : undefined,
    request: r.request,
    card: r.card as DingTalkCallRecord['card'],
    faultId: r.faultId,
  });

  return {
    baseUrl: server.baseUrl,
    port: server.port,
    clock,
    close: () => server.close(),
    injectFault: (rule) =>
      faults.add({
        route: rule.route,
        key: rule.outTrackId,
        nth: rule.nth,
        perKey: rule.perCard,
        window: rule.window,
        times: rule.times,
        respond: rule.respond,
        latencyMs: rule.latencyMs,
        label: rule.label,
      }),
    failDelivery: (rule = {}) =>
      DELIVERY_ID_PREFIX +
      deliveryFaults.add({
        route: DELIVERY_ROUTE,
        key: rule.outTrackId,
        nth: rule.nth,
        window: rule.window,
        times: rule.times,
        respond: { status: 200, body: { errorMsg: rule.errorMsg ?? 'SYSTEM_ERROR' } },
        label: 'deliverResults[].success = false',
      }),
    removeFault: (id) =>
      id.startsWith(DELIVERY_ID_PREFIX) ? deliveryFaults.remove(id.slice(DELIVERY_ID_PREFIX.length)) : faults.remove(id),
    faults: () => [...faults.list(), ...deliveryFaults.list().map((f) => ({ ...f, id: DELIVERY_ID_PREFIX + f.id }))],
    setFaultOrigin: (epochMs = clock()) => {
      faults.setOrigin(epochMs);
      deliveryFaults.setOrigin(epochMs);
    },
    revokeTokens: (token) => tokens.revoke(token),
    reset: () => {
      store.clear();
      history.clear();
      faults.reset();
      deliveryFaults.reset();
      limiter?.reset();
      tokens.revoke();
    },
    card: (outTrackId) => store.get(outTrackId),
    cards: () => store.list(),
    calls: (filter = {}) => history.list({ route: filter.route, key: filter.outTrackId, outcome: filter.outcome }).map(toDingTalk),
    cardHistory: (outTrackId) => history.list({ key: outTrackId }).filter((r) => r.route !== 'oauth2.accessToken').map(toDingTalk),
    maxInFlight: (outTrackId) => inFlight.max(outTrackId),
    onChange: (listener) => changes.subscribe(listener),
  };
}
