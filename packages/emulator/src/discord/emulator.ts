import { Hono, type Context } from 'hono';
import { ChangeFeed } from '../common/changes.js';
import { systemClock, type Clock } from '../common/clock.js';
import { delay } from '../common/delay.js';
import { FaultInjector } from '../common/faults.js';
import { CallHistory, type CallFilter, type CallRecord, type RouteCounts } from '../common/history.js';
import { InFlightTracker } from '../common/in-flight.js';
import { listen } from '../common/server.js';
import { DiscordBuckets, type DiscordBucketLimit } from './buckets.js';
import { DISCORD_ROUTES, DISCORD_ROUTE_NAMES, DiscordErrors, type DiscordError, type DiscordRoute } from './codes.js';
import { DiscordInteractions, type DiscordClick, type DiscordClickResult, type DiscordInteractionsConfig } from './interactions.js';
import { DEFAULT_DISCORD_LIMITS, type DiscordLimits } from './limits.js';
import { DiscordControlError, DiscordMessageStore, type DiscordAttachment, type DiscordMessageState, type StoredDiscordMessage } from './messages.js';
import { messageBodyProblem } from './validate.js';
import { messagesAfter, readDiscordBody, type ReceivedDiscordFile } from './uploads.js';

/** How long a create's `nonce` (with `enforce_nonce`) answers with the message it made, in ms (Discord: "the past few minutes"). */
const NONCE_WINDOW_MS = 5 * 60_000;

/** The bot token, application and channel the emulator knows when no options are given. */
export const DEFAULT_DISCORD_APP = {
  botToken: 'progresscard-emulator.discord.bot-token',
  applicationId: '1250000000000000007',
  channel: '1250000000000000100',
} as const;

/** Options of {@link createDiscordEmulator}. */
export interface DiscordEmulatorOptions {
  readonly botTokens?: readonly string[];
  /** Channels the bot can post in (default {@link DEFAULT_DISCORD_APP}'s). */
  readonly channels?: readonly string[];
  /** Channels that exist but the bot cannot see (50001 Missing Access). */
  readonly channelsWithoutAccess?: readonly string[];
  readonly limits?: Partial<DiscordLimits>;
  readonly clock?: Clock;
  readonly host?: string;
  readonly port?: number;
  readonly allowedHosts?: readonly string[];
}

/** A message with its calls, as read back. */
export interface DiscordMessageSnapshot {
  readonly id: string;
  readonly channelId: string;
  readonly replyTo?: string;
  readonly content: string;
  readonly embeds: unknown[];
  readonly components: unknown[];
  readonly state: DiscordMessageState;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly edits: number;
  readonly history: CallRecord[];
  readonly maxConcurrentCalls: number;
  /** Files the message carries, with their bytes. */
  readonly attachments?: readonly DiscordAttachment[];
  /** The person who wrote it, for a message not posted by the bot. */
  readonly authorId?: string;
}

/** A change of one message (for the preview page). */
export interface DiscordMessageChange {
  readonly platform: 'discord';
  readonly kind: 'posted' | 'updated' | 'deleted';
  readonly at: number;
  readonly message: DiscordMessageSnapshot;
}

/** An emulator without a server. */
export interface DiscordEmulatorCore {
  /** The Hono app serving `/api/v10/...`. */
  readonly app: Hono;
  readonly limits: DiscordLimits;
  /** Fault rules on {@link DISCORD_ROUTES}; the key of an edit is the message id. */
  readonly faults: FaultInjector;
  /** Hex Ed25519 public key interactions are signed with (the app's "Public Key"). */
  readonly publicKey: string;
  /**
   * Changes the limit a route's buckets announce and enforce, from each bucket's next window
   * (`messages.create`, `messages.edit`). @throws RangeError for a non-positive limit or window.
   */
  setBucketLimit(route: 'messages.create' | 'messages.edit', limit: DiscordBucketLimit): void;
  messages(filter?: { channelId?: string; replyTo?: string }): DiscordMessageSnapshot[];
  message(id: string): DiscordMessageSnapshot | undefined;
  calls(filter?: CallFilter): CallRecord[];
  counts(): Record<string, RouteCounts>;
  onChange(listener: (change: DiscordMessageChange) => void): () => void;
  /** Deletes a message: later edits answer 10008 Unknown Message. @throws DiscordControlError */
  deleteMessage(id: string): DiscordMessageSnapshot;
  /** Moves a message's creation time back by `ms` (to reach the one-hour edit cap, 30046). @throws DiscordControlError */
  ageMessage(id: string, ms: number): DiscordMessageSnapshot;
  /**
   * A person writes `content` in `channelId`: what pushes a card up the chat. Returns its snapshot.
   * @throws DiscordControlError for a channel the emulator does not know.
   */
  postUserMessage(channelId: string, content: string, options?: { authorId?: string }): DiscordMessageSnapshot;
  configureInteractions(config: DiscordInteractionsConfig | undefined): void;
  click(click: DiscordClick): Promise<DiscordClickResult>;
}

/** A running Discord emulator. */
export interface DiscordEmulator extends DiscordEmulatorCore {
  readonly baseUrl: string;
  /** `${baseUrl}/api/v10`: the REST base to give a client. */
  readonly apiUrl: string;
  readonly port: number;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
type Outcome = { ok: true; status?: number; key?: string; body?: unknown; card?: unknown } | { ok: false; error: DiscordError; key?: string };
const fail = (error: DiscordError, key?: string): Outcome => ({ ok: false, error, key });

/**
 * Builds the Discord REST emulator (create, edit and delete a channel message, the interaction
 * callback) without listening. Limits, codes and headers follow https://discord.com/developers/docs
 * (resources/message, topics/rate-limits, topics/opcodes-and-status-codes, interactions).
 */
export function createDiscordEmulator(options: DiscordEmulatorOptions = {}): DiscordEmulatorCore {
  const clock = options.clock ?? systemClock;
  const limits: DiscordLimits = { ...DEFAULT_DISCORD_LIMITS, ...options.limits };
  const tokens = new Set(options.botTokens ?? [DEFAULT_DISCORD_APP.botToken]);
  const channels = new Set(options.channels ?? [DEFAULT_DISCORD_APP.channel]);
  const hidden = new Set(options.channelsWithoutAccess ?? []);
  const history = new CallHistory(clock);
  const inFlight = new InFlightTracker();
  const faults = new FaultInjector(clock, DISCORD_ROUTE_NAMES);
  const store = new DiscordMessageStore();
  const changes = new ChangeFeed<DiscordMessageChange>();
  const buckets = new DiscordBuckets(clock, { [DISCORD_ROUTES.createMessage]: limits.createBucket, [DISCORD_ROUTES.editMessage]: limits.editBucket }, limits.globalPerSecond);

  const snapshot = (m: StoredDiscordMessage): DiscordMessageSnapshot =>
    structuredClone({
      id: m.id,
      channelId: m.channelId,
      ...(m.replyTo ? { replyTo: m.replyTo } : {}),
      content: m.content,
      embeds: m.embeds,
      components: m.components,
      state: m.state,
      createdAt: m.createdAt,
      updatedAt: m.updatedAt,
      edits: m.edits,
      history: history.list({ key: m.id }),
      maxConcurrentCalls: inFlight.max(m.id),
      ...(m.attachments ? { attachments: m.attachments } : {}),
      ...(m.authorId ? { authorId: m.authorId } : {}),
    });
  const notify = (kind: DiscordMessageChange['kind'], id: string) => {
    if (changes.size > 0) changes.emit({ platform: 'discord', kind, at: clock(), message: snapshot(store.require(id)) });
  };
  const messageJson = (m: StoredDiscordMessage) => ({
    id: m.id,
    channel_id: m.channelId,
    type: m.replyTo ? 19 : 0,
    content: m.content,
    embeds: m.embeds,
    components: m.components,
    author: m.authorId ? { id: m.authorId, username: 'person' } : { id: DEFAULT_DISCORD_APP.applicationId, username: 'progresscard', bot: true },
    attachments: (m.attachments ?? []).map(({ bytes: _bytes, ...file }) => file),
    timestamp: new Date(m.createdAt).toISOString(),
    edited_timestamp: m.edits > 0 ? new Date(m.updatedAt).toISOString() : null,
    ...(m.replyTo ? { message_reference: { message_id: m.replyTo, channel_id: m.channelId } } : {}),
  });

  const run = async (c: Context, route: DiscordRoute, handler: (body: Json, token: string, files: ReceivedDiscordFile[]) => Outcome, options: { key?: string; bucket?: string; authed?: boolean } = {}) => {
    const receivedAt = clock();
    const { body, files } = c.req.method === 'GET' ? { body: {}, files: [] } : await readDiscordBody(c);
    const key = options.key;
    // Counted in its bucket when it arrives, before any injected latency: Discord counts incoming requests, and a
    // slow answer must not move a call into a later window (https://discord.com/developers/docs/topics/rate-limits).
    const token = /^Bot\s+(\S+)$/.exec(c.req.header('authorization') ?? '')?.[1];
    const authorized = options.authed === false || (token !== undefined && tokens.has(token));
    const rate = authorized && options.bucket !== undefined && token ? buckets.take(route, options.bucket, token) : undefined;
    const leave = key ? inFlight.enter(key) : () => {};
    try {
      const decision = faults.onCall(route, key);
      await delay(decision.latencyMs);
      if (decision.response) {
        // An injected answer replaces the platform's: the call was not counted, as before the latency moved.
        rate?.release();
        const answer = decision.response.body as { message?: unknown; code?: unknown } | undefined;
        history.record({ route, key, outcome: 'rejected', status: decision.response.status, code: Number(answer?.code ?? 0), msg: typeof answer?.message === 'string' ? answer.message : undefined, request: body, faultId: decision.responseRuleId, receivedAt });
        return new Response(JSON.stringify(decision.response.body ?? { message: '500: Internal Server Error', code: 0 }), { status: decision.response.status, headers: { 'content-type': 'application/json', ...decision.response.headers } });
      }
      let headers: Record<string, string> = {};
      let outcome: Outcome;
      if (!authorized) outcome = fail(DiscordErrors.unauthorized(), key);
      else {
        headers = rate?.headers ?? {};
        if (rate && !rate.allowed) {
          history.record({ route, key, outcome: 'rejected', status: 429, code: 0, msg: rate.body!.global ? 'global rate limit' : 'rate limited', request: body, receivedAt });
          return new Response(JSON.stringify(rate.body), { status: 429, headers: { 'content-type': 'application/json', ...headers } });
        }
        outcome = handler(body, token ?? '', files);
      }
      if (outcome.ok) {
        history.record({ route, key: outcome.key ?? key, outcome: 'accepted', status: outcome.status ?? 200, code: 0, msg: 'ok', request: body, card: outcome.card, receivedAt });
        return outcome.body === undefined ? new Response(null, { status: outcome.status ?? 204, headers }) : new Response(JSON.stringify(outcome.body), { status: outcome.status ?? 200, headers: { 'content-type': 'application/json', ...headers } });
      }
      const { status, ...error } = outcome.error;
      history.record({ route, key: outcome.key ?? key, outcome: 'rejected', status, code: error.code, msg: error.message, request: body, receivedAt });
      return new Response(JSON.stringify(error), { status, headers: { 'content-type': 'application/json', ...headers } });
    } finally {
      leave();
    }
  };

  const channelProblem = (channelId: string): DiscordError | undefined => (hidden.has(channelId) ? DiscordErrors.missingAccess() : channels.has(channelId) ? undefined : DiscordErrors.unknownChannel());

  const app = new Hono().basePath('/api/v10');
  app.get('/users/@me', (c) => run(c, DISCORD_ROUTES.getCurrentUser, () => ({ ok: true, body: { id: DEFAULT_DISCORD_APP.applicationId, username: 'progresscard', bot: true } })));
  // enforce_nonce: "If another message was created by the same author with the same nonce, that
  // message will be returned and no new message will be created" (checked for "the past few minutes":
  // the exact window is unconfirmed, 5 minutes here). https://discord.com/developers/docs/resources/message#create-message
  const nonces = new Map<string, { readonly id: string; readonly at: number }>();
  app.post('/channels/:channel/messages', (c) => {
    const channelId = c.req.param('channel');
    return run(
      c,
      DISCORD_ROUTES.createMessage,
      (body, _token, files) => {
        const problem = channelProblem(channelId) ?? messageBodyProblem(body, limits, true, files.length);
        if (problem) return fail(problem);
        if (files.some((file) => file.bytes.length > limits.maxAttachmentBytes)) return fail(DiscordErrors.entityTooLarge());
        const replyTo = (body.message_reference as Json | undefined)?.message_id;
        if (replyTo !== undefined && store.get(String(replyTo))?.channelId !== channelId) return fail(DiscordErrors.invalidFormBody('message_reference', 'REPLIES_UNKNOWN_MESSAGE', 'Unknown message'));
        const now = clock();
        const nonceKey = body.enforce_nonce === true && (typeof body.nonce === 'string' || typeof body.nonce === 'number') ? `${channelId}:${body.nonce}` : undefined;
        const earlier = nonceKey === undefined ? undefined : nonces.get(nonceKey);
        const known = earlier && now - earlier.at < NONCE_WINDOW_MS ? store.get(earlier.id) : undefined;
        if (known) return { ok: true, key: known.id, body: messageJson(known), card: { content: known.content, embeds: known.embeds, components: known.components } };
        const message = store.add({
          id: store.newId(), channelId, replyTo: replyTo === undefined ? undefined : String(replyTo),
          content: typeof body.content === 'string' ? body.content : '', embeds: Array.isArray(body.embeds) ? body.embeds : [], components: Array.isArray(body.components) ? body.components : [],
          state: 'live', createdAt: now, updatedAt: now, edits: 0, oldEdits: 0,
          ...(files.length > 0 ? { attachments: files.map((file) => attachmentOf(store.newId(), channelId, file)) } : {}),
        });
        if (nonceKey !== undefined) nonces.set(nonceKey, { id: message.id, at: now });
        notify('posted', message.id);
        return { ok: true, key: message.id, body: messageJson(message), card: { content: message.content, embeds: message.embeds, components: message.components } };
      },
      { bucket: channelId },
    );
  });
  app.get('/channels/:channel/messages', (c) => {
    const channelId = c.req.param('channel');
    return run(c, DISCORD_ROUTES.listMessages, () => {
      const problem = channelProblem(channelId);
      if (problem) return fail(problem);
      return { ok: true, body: messagesAfter(store.list(), channelId, c.req.query('after'), c.req.query('limit')).map(messageJson) };
    });
  });
  app.patch('/channels/:channel/messages/:message', (c) => {
    const channelId = c.req.param('channel');
    const id = c.req.param('message');
    return run(
      c,
      DISCORD_ROUTES.editMessage,
      (body) => {
        const problem = channelProblem(channelId);
        if (problem) return fail(problem, id);
        const message = store.get(id);
        if (!message || message.channelId !== channelId || message.state === 'deleted') return fail(DiscordErrors.unknownMessage(), id);
        const invalid = messageBodyProblem(body, limits, false);
        if (invalid) return fail(invalid, id);
        const now = clock();
        if (now - message.createdAt >= limits.oldMessageAgeMs) {
          if (message.oldEdits >= limits.oldMessageEdits) return fail(DiscordErrors.oldMessageEdits(), id);
          message.oldEdits += 1;
        }
        if (body.content !== undefined) message.content = typeof body.content === 'string' ? body.content : '';
        if (body.embeds !== undefined) message.embeds = Array.isArray(body.embeds) ? body.embeds : [];
        if (body.components !== undefined) message.components = Array.isArray(body.components) ? body.components : [];
        message.updatedAt = now;
        message.edits += 1;
        notify('updated', id);
        return { ok: true, key: id, body: messageJson(message), card: { content: message.content, embeds: message.embeds, components: message.components } };
      },
      { key: id, bucket: channelId },
    );
  });
  app.delete('/channels/:channel/messages/:message', (c) =>
    run(c, DISCORD_ROUTES.deleteMessage, () => {
      const message = store.get(c.req.param('message'));
      if (!message || message.state === 'deleted') return fail(DiscordErrors.unknownMessage());
      message.state = 'deleted';
      notify('deleted', message.id);
      return { ok: true, status: 204 };
    }),
  );
  app.post('/interactions/:id/:token/callback', (c) =>
    run(
      c,
      DISCORD_ROUTES.interactionCallback,
      (body) => {
        const problem = interactions.callback(c.req.param('id'), c.req.param('token'), body);
        return problem ? fail(problem) : { ok: true, status: 204 };
      },
      { authed: false },
    ),
  );
  app.notFound((c) => c.json({ message: '404: Not Found', code: 0 }, 404));
  app.onError((error, c) => c.json({ message: `500: Internal Server Error (emulator) ${error.message}`, code: 0 }, 500));
  const interactions = new DiscordInteractions(store, history, clock, limits, DEFAULT_DISCORD_APP.applicationId, (id) => notify('updated', id));

  return {
    app,
    limits,
    faults,
    publicKey: interactions.publicKey,
    setBucketLimit: (route, limit) => buckets.setLimit(route, limit),
    messages: (filter = {}) => store.list().filter((m) => (filter.channelId === undefined || m.channelId === filter.channelId) && (filter.replyTo === undefined || m.replyTo === filter.replyTo)).map(snapshot),
    message: (id) => {
      const found = store.get(id);
      return found ? snapshot(found) : undefined;
    },
    calls: (filter) => history.list(filter),
    counts: () => history.counts(),
    onChange: (listener) => changes.subscribe(listener),
    deleteMessage: (id) => {
      const message = store.require(id);
      message.state = 'deleted';
      notify('deleted', id);
      return snapshot(message);
    },
    ageMessage: (id, ms) => {
      const message = store.require(id);
      message.createdAt -= ms;
      return snapshot(message);
    },
    postUserMessage: (channelId, content, options = {}) => {
      if (!channels.has(channelId)) throw new DiscordControlError(`no channel ${channelId}`);
      const now = clock();
      const message = store.add({ id: store.newId(), channelId, content, embeds: [], components: [], state: 'live', createdAt: now, updatedAt: now, edits: 0, oldEdits: 0, authorId: options.authorId ?? '1250000000000000900' });
      notify('posted', message.id);
      return snapshot(message);
    },
    configureInteractions: (config) => interactions.configure(config),
    click: (click) => interactions.click(click),
  };
}

/** An attachment as Discord answers it; `url` points at the CDN as Discord's do. */
function attachmentOf(id: string, channelId: string, file: ReceivedDiscordFile): DiscordAttachment {
  return { id, filename: file.filename, size: file.bytes.length, url: `https://cdn.discordapp.com/attachments/${channelId}/${id}/${encodeURIComponent(file.filename)}`, bytes: file.bytes };
}

/**
 * Starts the Discord emulator on loopback HTTP; the REST API is at `${baseUrl}/api/v10`.
 * @throws the listen error (e.g. `EADDRINUSE`).
 */
export async function startDiscordEmulator(options: DiscordEmulatorOptions = {}): Promise<DiscordEmulator> {
  const core = createDiscordEmulator(options);
  const server = await listen(core.app, { host: options.host, port: options.port, allowedHosts: options.allowedHosts });
  return Object.assign(core, { baseUrl: server.baseUrl, apiUrl: `${server.baseUrl}/api/v10`, port: server.port, close: server.close });
}

export { DiscordControlError };
