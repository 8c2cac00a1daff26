import { Hono } from 'hono';
import { ChangeFeed } from '../common/changes.js';
import type { Clock } from '../common/clock.js';
import { FaultInjector } from '../common/faults.js';
import { CallHistory, type CallFilter, type CallRecord, type RouteCounts } from '../common/history.js';
import { InFlightTracker } from '../common/in-flight.js';
import { SlidingWindowLimiter } from '../common/rate-limiter.js';
import { listen } from '../common/server.js';
import { FeishuLongConnectionHub } from './long-connection.js';
import { FeishuCallbacks, type FeishuCallbackConfig, type FeishuCallbackResult, type FeishuClick } from './callbacks.js';
import { FEISHU_ROUTE_NAMES } from './codes.js';
import type { FeishuContext } from './context.js';
import { FeishuMessageControlError, MessageStore, newMessageId, type StoredMessage } from './messages.js';
import { resolveOptions } from './options.js';
import { CardEntityStore, snapshotEntity, type FeishuCardEntitySnapshot } from './card-entities.js';
import { mountAuthRoutes } from './routes-auth.js';
import { mountCardKitRoutes } from './routes-cardkit.js';
import { mountMessageRoutes } from './routes-messages.js';
import { mountResourceRoutes } from './routes-resources.js';
import type { StoredImage, StoredReaction } from './types.js';
import { snapshotMessage } from './snapshot.js';
import { TokenStore, type FeishuApp, type IssuedToken } from './tokens.js';
import type { FeishuEmulatorOptions, FeishuLimits, FeishuMessageChange, FeishuMessageSnapshot } from './types.js';

/** An emulator without a server: mount `app` yourself (e.g. next to the DingTalk one) or use {@link startFeishuEmulator}. */
export interface FeishuEmulatorCore {
  /** The Hono app serving `/open-apis/...`. */
  readonly app: Hono;
  readonly clock: Clock;
  readonly apps: readonly FeishuApp[];
  readonly limits: FeishuLimits;
  /**
   * Fault rules on routes `auth.tenant_access_token`, `im.message.create`, `im.message.reply`,
   * `im.message.patch`, `cardkit.card.create`, `cardkit.card.update`, `cardkit.card.settings`,
   * `cardkit.element.content`; the key of reply/patch calls is the path `message_id`, of CardKit
   * calls on an entity its `card_id`. Windows are measured
   * from `faults.origin` (emulator start unless moved with `faults.setOrigin`).
   */
  readonly faults: FaultInjector;
  /** Recalls a message: later patches answer 230011. @throws FeishuMessageControlError (unknown id / not live). */
  recall(messageId: string): FeishuMessageSnapshot;
  /** Deletes a message: later patches answer 231003. @throws FeishuMessageControlError */
  deleteMessage(messageId: string): FeishuMessageSnapshot;
  /** Moves a message's send time `ms` into the past (14 days or more → patches answer 230031). @throws FeishuMessageControlError */
  age(messageId: string, ms: number): FeishuMessageSnapshot;
  /** Revokes every tenant_access_token (or one): later calls with it answer 99991663. Returns how many were active. */
  revokeTokens(token?: string): number;
  /** Tokens issued so far. */
  tokens(): IssuedToken[];
  /**
   * Every message, oldest first, optionally only one chat's or one topic's (`threadId`, `omt_…`:
   * the message a reply with `reply_in_thread` started the topic from, and every reply in it).
   */
  messages(filter?: { chatId?: string; threadId?: string }): FeishuMessageSnapshot[];
  /** One message, or undefined. */
  message(messageId: string): FeishuMessageSnapshot | undefined;
  /**
   * A user's text message in a chat, as the one that triggers an agent run (the bot replies to it,
   * e.g. in a topic with `reply_in_thread`). With `threadId` the message is posted inside that topic.
   * Returns the stored message; no HTTP call and no history entry.
   */
  postUserMessage(message: { chatId: string; text: string; threadId?: string }): FeishuMessageSnapshot;
  /** Images uploaded so far (`POST /open-apis/im/v1/images`), oldest first. */
  images(): StoredImage[];
  /** Forgets an uploaded image: cards naming its key are refused from now on (230099 / 200570). Returns whether it was known. */
  forgetImage(imageKey: string): boolean;
  /** The reactions on a message now, oldest first. */
  reactions(messageId: string): StoredReaction[];
  /** Every CardKit card entity, oldest first. */
  cardEntities(): FeishuCardEntitySnapshot[];
  /** One card entity, or undefined. */
  cardEntity(cardId: string): FeishuCardEntitySnapshot | undefined;
  /** Every call (accepted and rejected) in arrival order. */
  calls(filter?: CallFilter): CallRecord[];
  /** Calls / accepted / rejected per route. */
  counts(): Record<string, RouteCounts>;
  /** Subscribes to message changes; returns the unsubscribe function. */
  onChange(listener: (change: FeishuMessageChange) => void): () => void;
  /**
   * Sets (or, with undefined, removes) how the app receives card callbacks: its request URL, or
   * `{ mode: 'long-connection' }`.
   */
  configureCallbacks(config: FeishuCallbackConfig | undefined): void;
  /**
   * Clicks a callback button of a card as user `click.user`: POSTs the `card.action.trigger`
   * callback (schema 2.0, signed and encrypted when an encrypt key is configured), or pushes it over
   * the long connection, and shows the card of the response in place. Without configured callbacks nothing is sent
   * (`error: 'callbacks-not-configured'`). @throws FeishuMessageControlError for an unknown message.
   */
  click(click: FeishuClick): Promise<FeishuCallbackResult>;
  /** Delivers an earlier callback again with the same `event_id`, as a platform retry does. */
  retryCallback(eventId: string): Promise<FeishuCallbackResult>;
  /**
   * True when a client of the (first) app is connected over the long connection
   * (`POST /callback/ws/endpoint`, then the WebSocket it names; the official SDK's `WSClient`).
   */
  longConnected(): boolean;
  /** Drops every long connection, as a network failure would (the SDK reconnects by itself). */
  dropLongConnections(): void;
  /** Closes the long connections' WebSocket server (the started emulator's `close` does it too). */
  closeLongConnections(): Promise<void>;
}

/** A running Feishu emulator. */
export interface FeishuEmulator extends FeishuEmulatorCore {
  /** `http://127.0.0.1:<port>`: pass it as the SDK's `domain`. */
  readonly baseUrl: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Builds the Feishu Open API emulator (token, send, reply, patch, CardKit entities, image upload,
 * reactions) without listening.
 * @throws FeishuEmulatorOptionError for bad options.
 */
export function createFeishuEmulator(options: FeishuEmulatorOptions = {}): FeishuEmulatorCore {
  const o = resolveOptions(options);
  const clock = o.clock;
  const history = new CallHistory(clock);
  const inFlight = new InFlightTracker();
  const messages = new MessageStore();
  const entities = new CardEntityStore();
  const changes = new ChangeFeed<FeishuMessageChange>();
  const snapshotOf = (m: StoredMessage) => snapshotMessage(m, history, inFlight, m.cardId ? entities.get(m.cardId) : undefined);
  const snapshot = (id: string) => snapshotOf(messages.require(id));
  const ctx: FeishuContext = {
    clock,
    limits: o.limits,
    tenantKey: o.tenantKey,
    authErrorStatus: o.authErrorStatus,
    missingScopes: o.missingScopes,
    tokens: new TokenStore(o.apps, clock, o.tokenTtlSeconds),
    messages,
    entities,
    faults: new FaultInjector(clock, FEISHU_ROUTE_NAMES),
    history,
    inFlight,
    changes,
    appLimiter: new SlidingWindowLimiter(o.limits.appWindows, clock),
    messageLimiter: new SlidingWindowLimiter(o.limits.messageUpdateWindows, clock),
    chatLimiter: new SlidingWindowLimiter(o.limits.chatSendWindows, clock),
    cardLimiter: new SlidingWindowLimiter(o.limits.cardOperationWindows, clock),
    p2pChats: new Map(),
    images: new Map(),
    reactions: new Map(),
    notify(kind, messageId) {
      if (changes.size === 0) return;
      changes.emit({ platform: 'feishu', kind, at: clock(), message: snapshot(messageId) });
    },
  };

  const longConnection = new FeishuLongConnectionHub(o.apps, o.host, options.longConnection);
  const callbacks = new FeishuCallbacks(ctx, () => o.apps[0]?.appId ?? '', longConnection);
  const app = new Hono();
  app.post('/callback/ws/endpoint', async (c) => c.json(await longConnection.endpoint(await c.req.json().catch(() => undefined))));
  mountAuthRoutes(app, ctx);
  mountMessageRoutes(app, ctx);
  mountCardKitRoutes(app, ctx);
  mountResourceRoutes(app, ctx);
  app.notFound((c) => c.json({ code: 404, msg: `(emulator) no route ${c.req.method} ${c.req.path}` }, 404));
  app.onError((error, c) => c.json({ code: 500, msg: `(emulator) internal error: ${error.message}` }, 500));

  return {
    app,
    clock,
    apps: o.apps,
    limits: o.limits,
    faults: ctx.faults,
    recall(messageId) {
      messages.transition(messageId, 'recalled');
      ctx.notify('recalled', messageId);
      return snapshot(messageId);
    },
    deleteMessage(messageId) {
      messages.transition(messageId, 'deleted');
      ctx.notify('deleted', messageId);
      return snapshot(messageId);
    },
    age(messageId, ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new FeishuMessageControlError(`age: ms must be a number ≥ 0, got ${String(ms)}`);
      const message = messages.require(messageId);
      message.createdAt -= ms;
      ctx.notify('aged', messageId);
      return snapshot(messageId);
    },
    revokeTokens: (token) => ctx.tokens.revoke(token),
    tokens: () => ctx.tokens.list(),
    messages: (filter = {}) =>
      messages
        .list()
        .filter((m) => filter.chatId === undefined || m.chatId === filter.chatId)
        .filter((m) => filter.threadId === undefined || m.threadId === filter.threadId)
        .map(snapshotOf),
    message: (messageId) => (messages.get(messageId) ? snapshot(messageId) : undefined),
    postUserMessage({ chatId, text, threadId }) {
      const now = clock();
      const root = threadId ? messages.list().find((m) => m.threadId === threadId && !m.rootId) : undefined;
      const stored = messages.add({
        messageId: newMessageId(), chatId, msgType: 'text', senderAppId: '', content: JSON.stringify({ text }),
        shared: false, mentions: [], createdAt: now, updatedAt: now, state: 'live', updates: 0,
        ...(threadId && { threadId, rootId: root?.messageId }),
      });
      ctx.notify('created', stored.messageId);
      return snapshot(stored.messageId);
    },
    images: () => [...ctx.images.values()].map((image) => ({ ...image })),
    forgetImage: (imageKey) => ctx.images.delete(imageKey),
    reactions: (messageId) => [...ctx.reactions.values()].filter((r) => r.messageId === messageId).map((r) => ({ ...r })),
    cardEntities: () => entities.list().map(snapshotEntity),
    cardEntity: (cardId) => {
      const entity = entities.get(cardId);
      return entity ? snapshotEntity(entity) : undefined;
    },
    calls: (filter) => history.list(filter),
    counts: () => history.counts(),
    onChange: (listener) => changes.subscribe(listener),
    configureCallbacks: (config) => callbacks.configure(config),
    click: (click) => callbacks.click(click),
    retryCallback: (eventId) => callbacks.retry(eventId),
    longConnected: () => longConnection.connected(o.apps[0]?.appId ?? ''),
    dropLongConnections: () => longConnection.disconnectAll(),
    closeLongConnections: () => longConnection.close(),
  };
}

/**
 * Starts the Feishu emulator on real HTTP (default `127.0.0.1`, a free port).
 * Use `baseUrl` as the SDK domain: `new lark.Client({ appId, appSecret, domain: emulator.baseUrl })`.
 * @throws FeishuEmulatorOptionError for bad options, or the listen error.
 */
export async function startFeishuEmulator(options: FeishuEmulatorOptions = {}): Promise<FeishuEmulator> {
  const core = createFeishuEmulator(options);
  const server = await listen(core.app, { host: options.host, port: options.port, allowedHosts: options.allowedHosts });
  const close = async () => {
    await core.closeLongConnections();
    await server.close();
  };
  return Object.assign(core, { baseUrl: server.baseUrl, port: server.port, close });
}
