import { Hono, type Context } from 'hono';
import { ChangeFeed } from '../common/changes.js';
import { systemClock, type Clock } from '../common/clock.js';
import { delay } from '../common/delay.js';
import { FaultInjector } from '../common/faults.js';
import { CallHistory, type CallFilter, type CallRecord, type RouteCounts } from '../common/history.js';
import { InFlightTracker } from '../common/in-flight.js';
import { SlidingWindowLimiter } from '../common/rate-limiter.js';
import { listen } from '../common/server.js';
import { TeamsActivityStore, activityBytes, type StoredTeamsActivity, type TeamsConversation, type TeamsStream } from './activities.js';
import { TeamsAuth, type TeamsBotCredentials } from './auth.js';
import { TEAMS_ROUTES, TEAMS_ROUTE_NAMES, TeamsErrors, type TeamsError, type TeamsRoute } from './codes.js';
import { TeamsInvokes, type TeamsClick, type TeamsClickResult, type TeamsBotEndpoint } from './invokes.js';
import { DEFAULT_TEAMS_LIMITS, type TeamsLimits } from './limits.js';
import { TeamsStreams, streamInfoOf } from './streams.js';

/** The bot and conversations the emulator knows when no options are given. */
export const DEFAULT_TEAMS_BOT = {
  appId: '00000000-0000-4000-8000-00000000b07a',
  appPassword: 'emulator-client-secret',
  tenantId: '00000000-0000-4000-8000-0000000te4a7',
  /** A 1:1 chat with user `29:1owner`. */
  personalChat: 'a:1progresscard-emulator-personal',
  /** A group chat. */
  groupChat: '19:progresscard-emulator-group@thread.v2',
  /** A channel of a team. */
  channel: '19:progresscard-emulator-channel@thread.tacv2',
} as const;

/** Options of {@link createTeamsEmulator}. */
export interface TeamsEmulatorOptions {
  readonly bots?: readonly TeamsBotCredentials[];
  /** Conversations the bot is in (default: {@link DEFAULT_TEAMS_BOT}'s 1:1 chat, group chat and channel). */
  readonly conversations?: readonly TeamsConversation[];
  readonly limits?: Partial<TeamsLimits>;
  readonly clock?: Clock;
  readonly host?: string;
  readonly port?: number;
  readonly allowedHosts?: readonly string[];
}

/** An activity with its calls, as read back. */
export interface TeamsActivitySnapshot {
  readonly id: string;
  readonly conversationId: string;
  readonly type: string;
  readonly text: string;
  /** The attachments it holds (Adaptive Cards: `{ contentType: 'application/vnd.microsoft.card.adaptive', content }`). */
  readonly attachments: readonly unknown[];
  readonly replyToId?: string;
  readonly deleted: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly updates: number;
  readonly stream?: Readonly<TeamsStream>;
  readonly history: CallRecord[];
  readonly maxConcurrentCalls: number;
}

/** A change of an activity (for the preview page). */
export interface TeamsChange {
  readonly platform: 'teams';
  readonly kind: 'posted' | 'updated' | 'deleted' | 'streamed';
  readonly at: number;
  readonly activity: TeamsActivitySnapshot;
}

/** An emulator without a server. */
export interface TeamsEmulatorCore {
  readonly app: Hono;
  readonly limits: TeamsLimits;
  /** Fault rules on {@link TEAMS_ROUTES}; the key is the activity id (the stream id for streaming activities, the new id for sends). */
  readonly faults: FaultInjector;
  readonly auth: TeamsAuth;
  /** Every activity, oldest first, optionally of one conversation. */
  activities(filter?: { conversationId?: string }): TeamsActivitySnapshot[];
  activity(conversationId: string, activityId: string): TeamsActivitySnapshot | undefined;
  calls(filter?: CallFilter): CallRecord[];
  counts(): Record<string, RouteCounts>;
  onChange(listener: (change: TeamsChange) => void): () => void;
  /** A user deletes the activity: later updates answer 404. @throws Error for an unknown activity. */
  deleteActivity(conversationId: string, activityId: string): void;
  /** The user presses Stop on a streamed message. @throws Error for an unknown or non-streamed activity. */
  stopStreamByUser(conversationId: string, activityId: string): void;
  /** Where card clicks (invoke activities) are delivered. */
  setBotEndpoint(endpoint: TeamsBotEndpoint | undefined): void;
  /** The `serviceUrl` inbound activities name (set by {@link startTeamsEmulator}). */
  setServiceUrl(serviceUrl: string): void;
  /** A user presses an `Action.Execute` button: posts an `adaptiveCard/action` invoke to the bot with a signed JWT. */
  click(click: TeamsClick): Promise<TeamsClickResult>;
}

/** A running Teams emulator. */
export interface TeamsEmulator extends TeamsEmulatorCore {
  readonly baseUrl: string;
  /** The `serviceUrl` to give a bot (`${baseUrl}/`); connector routes are `${serviceUrl}v3/conversations/…`. */
  readonly serviceUrl: string;
  /** The token endpoint's base (`${baseUrl}`): `${loginUrl}/{tenant}/oauth2/v2.0/token`. */
  readonly loginUrl: string;
  /** The OpenID configuration a bot validates incoming tokens with. */
  readonly openIdMetadataUrl: string;
  readonly port: number;
  close(): Promise<void>;
}

type Outcome = { ok: true; status: number; body: Record<string, unknown>; key?: string; change?: TeamsChange['kind']; activity?: StoredTeamsActivity } | { ok: false; error: TeamsError; key?: string };
const fail = (error: TeamsError, key?: string): Outcome => ({ ok: false, error, key });

const errorResponse = (error: TeamsError) =>
  new Response(JSON.stringify({ error: { code: error.code, message: error.message } }), { status: error.status, headers: { 'content-type': 'application/json', ...error.headers } });

/**
 * Builds the Bot Connector emulator of Microsoft Teams without listening: send, reply, update and delete
 * of activities (https://learn.microsoft.com/azure/bot-service/rest-api/bot-framework-rest-connector-api-reference),
 * streaming in 1:1 chats ({@link TeamsStreams}), per-conversation rate limits (a call counted when it arrives,
 * before any injected latency, as the service counts incoming requests:
 * https://learn.microsoft.com/microsoftteams/platform/bots/how-to/rate-limit), the size limit, the
 * client-credentials token endpoint and the OpenID configuration / JWKS of inbound tokens ({@link TeamsAuth}),
 * card clicks as `adaptiveCard/action` invokes, fault injection and read-back.
 */
export function createTeamsEmulator(options: TeamsEmulatorOptions = {}): TeamsEmulatorCore {
  const clock = options.clock ?? systemClock;
  const limits: TeamsLimits = { ...DEFAULT_TEAMS_LIMITS, ...options.limits };
  const auth = new TeamsAuth(options.bots ?? [{ appId: DEFAULT_TEAMS_BOT.appId, appPassword: DEFAULT_TEAMS_BOT.appPassword }], clock, limits.tokenLifetimeMs);
  const store = new TeamsActivityStore();
  for (const conversation of options.conversations ?? [
    { id: DEFAULT_TEAMS_BOT.personalChat, type: 'personal' },
    { id: DEFAULT_TEAMS_BOT.groupChat, type: 'groupChat' },
    { id: DEFAULT_TEAMS_BOT.channel, type: 'channel' },
  ] satisfies TeamsConversation[])
    store.conversations.set(conversation.id, conversation);
  const history = new CallHistory(clock);
  const inFlight = new InFlightTracker();
  const faults = new FaultInjector(clock, TEAMS_ROUTE_NAMES);
  const changes = new ChangeFeed<TeamsChange>();
  const perConversation = new SlidingWindowLimiter(limits.perConversationWindows, clock);
  const perPersonalChat = new SlidingWindowLimiter(limits.personalChatWindows, clock);
  const streams = new TeamsStreams(store, limits, clock);
  const invokes = new TeamsInvokes(store, auth, limits, history);

  const snapshot = (a: StoredTeamsActivity): TeamsActivitySnapshot =>
    structuredClone({
      id: a.id,
      conversationId: a.conversationId,
      type: a.type,
      text: a.text,
      attachments: a.attachments,
      ...(a.replyToId !== undefined ? { replyToId: a.replyToId } : {}),
      deleted: a.deleted,
      createdAt: a.createdAt,
      updatedAt: a.updatedAt,
      updates: a.updates,
      ...(a.stream ? { stream: { ...a.stream } } : {}),
      history: history.list({ key: a.id }),
      maxConcurrentCalls: inFlight.max(a.id),
    });

  /** A message activity's content checks shared by sends, replies and updates. */
  const contentError = (body: Record<string, unknown>): TeamsError | undefined => {
    if (body.type !== 'message') return TeamsErrors.badRequest(`Activity type ${String(body.type)} is not supported here`);
    const text = body.text;
    const attachments = body.attachments;
    if (text !== undefined && typeof text !== 'string') return TeamsErrors.badRequest('text must be a string');
    if (attachments !== undefined && !Array.isArray(attachments)) return TeamsErrors.badRequest('attachments must be an array');
    if ((text ?? '') === '' && (attachments?.length ?? 0) === 0) return TeamsErrors.badRequest('The activity has neither text nor attachments');
    if (activityBytes(body) > limits.maxActivityBytes) return TeamsErrors.tooLarge();
    return undefined;
  };

  /**
   * Counts a connector call in its conversation's windows when it arrives, as the service does: a slow
   * answer (injected latency) must not move the call into a later window. The slot is given back when
   * the call is then refused for another reason (`release`): refused calls are not counted.
   */
  const countOnArrival = (appId: string | undefined, conversationId: string): { limited?: TeamsError; release: () => void } => {
    const conversation = store.conversations.get(conversationId);
    if (!appId || !conversation) return { release: () => {} };
    const key = `${appId}|${conversationId}`;
    const decision = perConversation.tryAcquire(key);
    if (!decision.allowed) return { limited: TeamsErrors.throttled(decision.retryAfterMs), release: () => {} };
    const hourly = conversation.type === 'personal' ? perPersonalChat.tryAcquire(key) : undefined;
    const release = () => {
      perConversation.release(key, decision.at);
      if (hourly?.allowed) perPersonalChat.release(key, hourly.at);
    };
    if (hourly && !hourly.allowed) {
      release();
      return { limited: TeamsErrors.throttled(hourly.retryAfterMs), release: () => {} };
    }
    return { release };
  };

  const post = (limited: TeamsError | undefined, conversation: TeamsConversation, body: Record<string, unknown>, replyToId?: string): Outcome => {
    const info = streamInfoOf(body);
    if (info) {
      if (limited) return fail(limited, info.streamId);
      const outcome = streams.apply(conversation, body, info);
      if (!outcome.ok) return fail(outcome.error, outcome.key);
      return { ok: true, status: outcome.status, body: outcome.body, key: outcome.activity.id, change: outcome.dropped ? undefined : info.streamType === 'final' ? 'updated' : outcome.status === 201 ? 'posted' : 'streamed', activity: outcome.activity };
    }
    const problem = contentError(body);
    if (problem) return fail(problem);
    if (limited) return fail(limited);
    const now = clock();
    const activity = store.add({
      id: store.newId(),
      conversationId: conversation.id,
      type: 'message',
      text: typeof body.text === 'string' ? body.text : '',
      attachments: (body.attachments as unknown[] | undefined) ?? [],
      ...(replyToId !== undefined ? { replyToId } : {}),
      deleted: false,
      createdAt: now,
      updatedAt: now,
      updates: 0,
    });
    return { ok: true, status: 201, body: { id: activity.id }, key: activity.id, change: 'posted', activity };
  };

  const run = async (c: Context, route: TeamsRoute, handler: (limited: TeamsError | undefined, conversation: TeamsConversation, body: Record<string, unknown>) => Outcome) => {
    const receivedAt = clock();
    const arrival = countOnArrival(auth.verify(c.req.header('authorization')), c.req.param('conversationId') ?? '');
    let accepted = false;
    const body = (await c.req.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    const activityId = c.req.param('activityId');
    const key = activityId ?? (body ? streamInfoOf(body)?.streamId : undefined);
    const leave = key ? inFlight.enter(key) : () => {};
    try {
      const decision = faults.onCall(route, key);
      await delay(decision.latencyMs);
      if (decision.response) {
        const answer = decision.response.body as { error?: { message?: unknown } } | undefined;
        history.record({ route, key, outcome: 'rejected', status: decision.response.status, code: decision.response.status, msg: typeof answer?.error?.message === 'string' ? answer.error.message : undefined, request: body, faultId: decision.responseRuleId, receivedAt });
        return new Response(JSON.stringify(decision.response.body ?? { error: { code: 'InternalServerError', message: 'Internal server error' } }), { status: decision.response.status, headers: { 'content-type': 'application/json', ...decision.response.headers } });
      }
      const appId = auth.verify(c.req.header('authorization'));
      const conversation = store.conversations.get(c.req.param('conversationId') ?? '');
      const outcome: Outcome = !appId
        ? fail(TeamsErrors.unauthorized(), key)
        : !conversation
          ? fail(TeamsErrors.conversationNotFound(), key)
          : route !== TEAMS_ROUTES.deleteActivity && (!body || typeof body !== 'object')
            ? fail(TeamsErrors.badRequest('The request body is not a JSON activity'), key)
            : handler(arrival.limited, conversation, body ?? {});
      if (!outcome.ok) {
        history.record({ route, key: outcome.key ?? key, outcome: 'rejected', status: outcome.error.status, code: outcome.error.status, msg: `${outcome.error.code}: ${outcome.error.message}`, request: body, receivedAt });
        return errorResponse(outcome.error);
      }
      accepted = true;
      history.record({ route, key: outcome.key ?? key, outcome: 'accepted', status: outcome.status, code: 0, msg: 'ok', request: body, card: body?.attachments, receivedAt });
      if (outcome.change && outcome.activity && changes.size > 0) changes.emit({ platform: 'teams', kind: outcome.change, at: clock(), activity: snapshot(outcome.activity) });
      return c.json(outcome.body, outcome.status as 200);
    } finally {
      if (!accepted) arrival.release();
      leave();
    }
  };

  const app = new Hono();
  app.post('/:tenant/oauth2/v2.0/token', async (c) => {
    const form = await c.req.parseBody().catch(() => ({}));
    const decision = faults.onCall(TEAMS_ROUTES.token);
    await delay(decision.latencyMs);
    if (decision.response) return new Response(JSON.stringify(decision.response.body ?? {}), { status: decision.response.status, headers: { 'content-type': 'application/json', ...decision.response.headers } });
    const answer = auth.issue(form);
    history.record({ route: TEAMS_ROUTES.token, outcome: 'error' in answer ? 'rejected' : 'accepted', status: 'error' in answer ? 401 : 200, code: 0, msg: 'error' in answer ? answer.error : 'ok' });
    return c.json(answer, 'error' in answer ? (answer.error === 'invalid_client' ? 401 : 400) : 200);
  });
  app.get('/v1/.well-known/openidconfiguration', (c) => {
    const origin = new URL(c.req.url).origin;
    return c.json({ issuer: 'https://api.botframework.com', authorization_endpoint: `${origin}/v1/authorize`, jwks_uri: `${origin}/v1/.well-known/keys`, id_token_signing_alg_values_supported: ['RS256'], token_endpoint_auth_methods_supported: ['private_key_jwt'] });
  });
  app.get('/v1/.well-known/keys', async (c) => c.json(await auth.jwks()));
  app.post('/v3/conversations/:conversationId/activities', (c) => run(c, TEAMS_ROUTES.sendToConversation, (limited, conversation, body) => post(limited, conversation, body)));
  app.post('/v3/conversations/:conversationId/activities/:activityId', (c) =>
    run(c, TEAMS_ROUTES.replyToActivity, (limited, conversation, body) => {
      const replyTo = c.req.param('activityId');
      if (!store.get(conversation.id, replyTo)) return fail(TeamsErrors.activityNotFound(), replyTo);
      return post(limited, conversation, body, replyTo);
    }),
  );
  app.put('/v3/conversations/:conversationId/activities/:activityId', (c) =>
    run(c, TEAMS_ROUTES.updateActivity, (limited, conversation, body) => {
      const id = c.req.param('activityId');
      const activity = store.get(conversation.id, id);
      if (!activity || activity.deleted) return fail(TeamsErrors.activityNotFound(), id);
      if (activity.stream) streams.expire(activity);
      // The Teams SDK updates a timed-out stream with a plain PUT; an open stream takes streaming activities only (UNCONFIRMED answer).
      if (activity.stream?.state === 'streaming') return fail(TeamsErrors.badRequest('The activity is streaming: send streaming activities until the final'), id);
      const problem = contentError(body);
      if (problem) return fail(problem, id);
      if (limited) return fail(limited, id);
      activity.text = typeof body.text === 'string' ? body.text : '';
      activity.attachments = (body.attachments as unknown[] | undefined) ?? [];
      activity.updatedAt = clock();
      activity.updates += 1;
      return { ok: true, status: 200, body: { id }, key: id, change: 'updated', activity };
    }),
  );
  app.delete('/v3/conversations/:conversationId/activities/:activityId', (c) =>
    run(c, TEAMS_ROUTES.deleteActivity, (limited, conversation) => {
      const id = c.req.param('activityId');
      const activity = store.get(conversation.id, id);
      if (!activity || activity.deleted) return fail(TeamsErrors.activityNotFound(), id);
      if (limited) return fail(limited, id);
      activity.deleted = true;
      return { ok: true, status: 200, body: {}, key: id, change: 'deleted', activity };
    }),
  );
  app.notFound((c) => c.json({ error: { code: 'NotFound', message: 'The requested resource does not exist' } }, 404));
  app.onError((error, c) => c.json({ error: { code: 'InternalServerError', message: `(emulator) ${error.message}` } }, 500));

  const find = (conversationId: string, activityId: string): StoredTeamsActivity => {
    const activity = store.get(conversationId, activityId);
    if (!activity) throw new Error(`no activity ${activityId} in conversation ${conversationId}`);
    return activity;
  };
  return {
    app,
    limits,
    faults,
    auth,
    activities: (filter = {}) => store.list().filter((a) => filter.conversationId === undefined || a.conversationId === filter.conversationId).map((a) => {
      if (a.stream) streams.expire(a);
      return snapshot(a);
    }),
    activity: (conversationId, activityId) => {
      const found = store.get(conversationId, activityId);
      return found ? snapshot(found) : undefined;
    },
    calls: (filter) => history.list(filter),
    counts: () => history.counts(),
    onChange: (listener) => changes.subscribe(listener),
    deleteActivity: (conversationId, activityId) => {
      const activity = find(conversationId, activityId);
      activity.deleted = true;
      if (changes.size > 0) changes.emit({ platform: 'teams', kind: 'deleted', at: clock(), activity: snapshot(activity) });
    },
    stopStreamByUser: (conversationId, activityId) => streams.cancel(find(conversationId, activityId)),
    setBotEndpoint: (endpoint) => invokes.configure(endpoint),
    setServiceUrl: (serviceUrl) => {
      invokes.serviceUrl = serviceUrl;
    },
    click: (click) => invokes.click(click),
  };
}

/**
 * Starts the Teams emulator on loopback HTTP: connector routes under `serviceUrl`, the token endpoint and
 * the OpenID configuration under `baseUrl`.
 * @throws the listen error (e.g. `EADDRINUSE`).
 */
export async function startTeamsEmulator(options: TeamsEmulatorOptions = {}): Promise<TeamsEmulator> {
  const core = createTeamsEmulator(options);
  const server = await listen(core.app, { host: options.host, port: options.port, allowedHosts: options.allowedHosts });
  core.setServiceUrl(`${server.baseUrl}/`);
  return Object.assign(core, {
    baseUrl: server.baseUrl,
    serviceUrl: `${server.baseUrl}/`,
    loginUrl: server.baseUrl,
    openIdMetadataUrl: `${server.baseUrl}/v1/.well-known/openidconfiguration`,
    port: server.port,
    close: server.close,
  });
}
