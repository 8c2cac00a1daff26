import { Hono } from 'hono';
import {
  CallHistory,
  ChangeFeed,
  FaultInjector,
  InFlightTracker,
  SlidingWindowLimiter,
  listen,
  type CallRecord,
} from '../common/index.js';
import { DingTalkCallbacks } from './callbacks.js';
import { DingTalkCardStore, type DingTalkCardInstance } from './card-store.js';
import { DingTalkStreamHub } from './stream.js';
import { DingTalkApiFailure, envelopeOf, failures, newRequestId } from './errors.js';
import { DELIVERY_ROUTE, DINGTALK_ROUTES, DINGTALK_ROUTE_NAMES, type DingTalkRoute } from './handlers.js';
import { resolveDingTalkOptions } from './options.js';
import { dingTalkResponse, serveDingTalkCall, type PipelineContext } from './pipeline.js';
import { DingTalkTokenRegistry } from './tokens.js';
import { DingTalkMediaStore, mountOapiRoutes } from './media.js';
import { displayOf } from './template-model.js';
import type {
  DingTalkCallRecord,
  DingTalkCardChange,
  DingTalkCardSnapshot,
  DingTalkEmulator,
  DingTalkEmulatorCore,
  DingTalkEmulatorOptions,
} from './types.js';

function toDingTalkRecord(r: CallRecord): DingTalkCallRecord {
  return {
    seq: r.seq,
    receivedAt: r.receivedAt,
    at: r.at,
    route: r.route as DingTalkRoute,
    key: r.key,
    outcome: r.outcome,
    status: r.status,
    code: r.outcome === 'rejected' ? r.msg : undefined,
    request: r.request,
    card: r.card as DingTalkCardInstance | undefined,
    faultId: r.faultId,
  };
}

/**
 * Builds the DingTalk card API emulator (token, createAndDeliver, create, deliver, instance update,
 * streaming, robot group and 1:1 messages, and on the old-style host `gettoken` and the media upload
 * robots send files with) with the documented validation, error envelopes, the 20 QPS per app per API limit, the
 * monthly quota, a template model (streaming switch, failed state, blank cards: `display` of every
 * card), fault injection and read-back, without listening.
 * @throws DingTalkEmulatorOptionError for bad options.
 */
export function createDingTalkEmulator(options: DingTalkEmulatorOptions = {}): DingTalkEmulatorCore {
  const o = resolveDingTalkOptions(options);
  const clock = o.clock;
  const store = new DingTalkCardStore();
  const history = new CallHistory(clock);
  const inFlight = new InFlightTracker();
  const changes = new ChangeFeed<DingTalkCardChange>();
  const tokens = new DingTalkTokenRegistry(o.apps, clock, o.tokenTtlSeconds);

  const historyOf = (outTrackId: string) =>
    history.list({ key: outTrackId }).filter((r) => r.route !== 'oauth2.accessToken').map(toDingTalkRecord);
  const snapshot = (card: DingTalkCardInstance): DingTalkCardSnapshot =>
    structuredClone({ ...card, history: historyOf(card.outTrackId), maxConcurrentCalls: inFlight.max(card.outTrackId), display: displayOf(card, o.templateModels[card.cardTemplateId] ?? o.template) });

  const ctx: PipelineContext = {
    store,
    tokens,
    clock,
    faults: new FaultInjector(clock, DINGTALK_ROUTE_NAMES),
    deliveryFaults: new FaultInjector(clock, [DELIVERY_ROUTE]),
    history,
    inFlight,
    limiter: o.rateLimit && new SlidingWindowLimiter(o.rateLimit, clock),
    knownTemplates: o.templates,
    streamingKeys: o.streamingKeys,
    maxStreamingContentChars: o.maxStreamingContentChars,
    monthlyQuota: o.monthlyQuota,
    missingScopes: o.missingScopes,
    metered: { count: 0 },
    robotMessages: [],
    media: new DingTalkMediaStore(),
    callbackRoutes: new Map(),
    notify(result) {
      if (changes.size === 0 || !result.change || !result.card) return;
      const card = store.get(result.card.outTrackId);
      if (card) changes.emit({ platform: 'dingtalk', kind: result.change, at: clock(), card: snapshot(card) });
    },
  };

  const stream = new DingTalkStreamHub(o.apps, options.host ?? '127.0.0.1', options.allowedHosts);
  const callbacks = new DingTalkCallbacks(store, stream, clock, 'dingemulatorcorp', 3000, ctx.callbackRoutes);
  const app = new Hono();
  app.post('/v1.0/gateway/connections/open', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
    const opened = await stream.open(body);
    return opened ? c.json(opened) : c.json({ code: 'InvalidAuthentication', message: 'clientId or clientSecret is wrong' }, 401);
  });
  mountOapiRoutes(app, { tokens, media: ctx.media, clock, maxMediaBytes: o.maxMediaBytes });
  for (const route of DINGTALK_ROUTE_NAMES) {
    const { method, path } = DINGTALK_ROUTES[route];
    app.on(method, path, (c) => serveDingTalkCall(ctx, c, route));
  }
  app.notFound((c) => {
    const requestId = newRequestId();
    return dingTalkResponse(404, envelopeOf(failures.notFound(c.req.path), requestId), requestId);
  });
  app.onError((error) => {
    const requestId = newRequestId();
    const failure = new DingTalkApiFailure(500, 'system.busy', `(emulator) internal error: ${error.message}`);
    return dingTalkResponse(500, envelopeOf(failure, requestId), requestId);
  });

  return {
    app,
    clock,
    apps: o.apps,
    faults: ctx.faults,
    deliveryFaults: ctx.deliveryFaults,
    failDelivery: (rule = {}) =>
      ctx.deliveryFaults.add({
        route: DELIVERY_ROUTE,
        key: rule.outTrackId,
        nth: rule.nth,
        window: rule.window,
        times: rule.times,
        respond: { status: 200, body: { errorMsg: rule.errorMsg ?? 'SYSTEM_ERROR' } },
        label: 'deliverResults[].success = false',
      }),
    answerResultFalse: (rule = {}) =>
      ctx.faults.add({
        route: rule.route ?? 'card.update',
        key: rule.outTrackId,
        times: rule.times,
        respond: { status: 200, body: { success: true, result: false } },
        label: 'result: false (not applied)',
      }),
    meteredCalls: () => ctx.metered.count,
    setFaultOrigin: (epochMs = clock()) => {
      ctx.faults.setOrigin(epochMs);
      ctx.deliveryFaults.setOrigin(epochMs);
    },
    revokeTokens: (token) => tokens.revoke(token),
    tokens: () => tokens.validTokens(),
    cards: () => store.list().map(snapshot),
    card: (outTrackId) => {
      const card = store.get(outTrackId);
      return card && snapshot(card);
    },
    robotMessages: () => structuredClone(ctx.robotMessages),
    mediaFiles: () => ctx.media.list().map((file) => ({ ...file, bytes: new Uint8Array(file.bytes) })),
    calls: (filter = {}) => history.list({ route: filter.route, key: filter.outTrackId, outcome: filter.outcome }).map(toDingTalkRecord),
    counts: () => history.counts(),
    onChange: (listener) => changes.subscribe(listener),
    click: async (click) => {
      const result = await callbacks.click(click);
      const card = result.cardUpdated ? store.get(click.outTrackId) : undefined;
      if (card && changes.size > 0) changes.emit({ platform: 'dingtalk', kind: 'updated', at: clock(), card: snapshot(card) });
      return result;
    },
    retryCallback: (messageId) => callbacks.retry(messageId),
    closeStream: () => stream.close(),
  };
}

/**
 * Starts the DingTalk emulator on real HTTP (default `127.0.0.1`, a free port); pass `baseUrl` as the
 * plugin's `baseUrl`. Runs beside the Feishu emulator (each has its own port and state).
 * @throws DingTalkEmulatorOptionError for bad options, or the listen error.
 */
export async function startDingTalkEmulator(options: DingTalkEmulatorOptions = {}): Promise<DingTalkEmulator> {
  const core = createDingTalkEmulator(options);
  const server = await listen(core.app, { host: options.host, port: options.port, allowedHosts: options.allowedHosts });
  const close = async () => {
    await core.closeStream();
    await server.close();
  };
  return Object.assign(core, { baseUrl: server.baseUrl, port: server.port, close });
}
