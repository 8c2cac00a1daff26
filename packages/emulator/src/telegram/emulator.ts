import { Hono, type Context } from 'hono';
import { ChangeFeed } from '../common/changes.js';
import { systemClock, type Clock } from '../common/clock.js';
import { delay } from '../common/delay.js';
import { FaultInjector } from '../common/faults.js';
import { CallHistory, type CallFilter, type CallRecord, type RouteCounts } from '../common/history.js';
import { InFlightTracker } from '../common/in-flight.js';
import { countOnArrival, SlidingWindowLimiter, type ArrivalCount } from '../common/rate-limiter.js';
import { listen } from '../common/server.js';
import { TelegramCallbacks, type TelegramClick, type TelegramClickResult, type TelegramWebhookConfig } from './callbacks.js';
import { TelegramControlError, TelegramStore, type StoredTelegramDraft, type StoredTelegramMessage, type TelegramChat, type TelegramMessageState } from './chats.js';
import { TELEGRAM_ROUTES, TELEGRAM_ROUTE_NAMES, TelegramErrors, type TelegramError, type TelegramRoute } from './codes.js';
import { readArgs, toInt, uploadedFile, type Args } from './args.js';
import { DEFAULT_TELEGRAM_LIMITS, type TelegramLimits } from './limits.js';
import { messageContent } from './content.js';
import { telegramSnapshot, type TelegramMessageSnapshot } from './snapshot.js';

/** The bot token and chats the emulator knows when no options are given. */
export const DEFAULT_TELEGRAM_BOT = {
  botToken: '123456:progresscard-emulator-token',
  botId: 123456,
  /** A private chat with user 4242. */
  privateChat: 4242,
  /** A forum supergroup with topic 42. */
  groupChat: -1001234567890,
  topic: 42,
} as const;

/** Options of {@link createTelegramEmulator}. */
export interface TelegramEmulatorOptions {
  readonly botTokens?: readonly string[];
  /** Chats the bot is in (default: {@link DEFAULT_TELEGRAM_BOT}'s private chat and forum supergroup). */
  readonly chats?: readonly TelegramChat[];
  readonly limits?: Partial<TelegramLimits>;
  readonly clock?: Clock;
  readonly host?: string;
  readonly port?: number;
  readonly allowedHosts?: readonly string[];
}

/** A change of a message or draft (for the preview page). */
export interface TelegramChange {
  readonly platform: 'telegram';
  readonly kind: 'posted' | 'updated' | 'deleted' | 'edit-closed' | 'draft';
  readonly at: number;
  readonly message?: TelegramMessageSnapshot;
  readonly draft?: StoredTelegramDraft;
}

/** An emulator without a server. */
export interface TelegramEmulatorCore {
  readonly app: Hono;
  readonly limits: TelegramLimits;
  /** Fault rules on the Bot API method names ({@link TELEGRAM_ROUTES}); the key is `<chat_id>:<message_id>` for edits. */
  readonly faults: FaultInjector;
  /** Every message, oldest first, optionally of one chat. */
  messages(filter?: { chatId?: number }): TelegramMessageSnapshot[];
  message(chatId: number, messageId: number): TelegramMessageSnapshot | undefined;
  /** The drafts a chat shows now (not expired, not replaced by a message). */
  drafts(chatId: number): StoredTelegramDraft[];
  /** Every draft state ever accepted, in order (read-back after it vanished). */
  draftLog(chatId?: number): StoredTelegramDraft[];
  calls(filter?: CallFilter): CallRecord[];
  counts(): Record<string, RouteCounts>;
  onChange(listener: (change: TelegramChange) => void): () => void;
  /** Deletes a message: later edits answer "message to edit not found". @throws TelegramControlError */
  deleteMessage(chatId: number, messageId: number): TelegramMessageSnapshot;
  /** Later edits answer "message can't be edited". @throws TelegramControlError */
  closeEdits(chatId: number, messageId: number): TelegramMessageSnapshot;
  /** The user of a private chat blocks the bot: calls to it answer 403 "bot was blocked by the user". */
  blockBot(chatId: number): void;
  /** Sets (or removes) the webhook URL and `secret_token` clicks are delivered to. */
  setWebhook(config: TelegramWebhookConfig | undefined): void;
  /** Presses an inline button as a user: POSTs a `callback_query` update and waits for answerCallbackQuery. */
  click(click: TelegramClick): Promise<TelegramClickResult>;
}

/** A running Telegram emulator. */
export interface TelegramEmulator extends TelegramEmulatorCore {
  readonly baseUrl: string;
  /** The Bot API root to give a client (`${baseUrl}`; methods are `${apiRoot}/bot<token>/<method>`). */
  readonly apiRoot: string;
  readonly port: number;
  close(): Promise<void>;
}

type Outcome = { ok: true; key?: string; result: unknown; card?: unknown } | { ok: false; error: TelegramError; key?: string };
const fail = (error: TelegramError, key?: string): Outcome => ({ ok: false, error, key });

/**
 * Builds the Telegram Bot API emulator (getMe, sendMessage, editMessageText, sendMessageDraft,
 * answerCallbackQuery, deleteMessage) without listening. Limits and texts follow
 * https://core.telegram.org/bots/api and https://core.telegram.org/bots/faq.
 */
export function createTelegramEmulator(options: TelegramEmulatorOptions = {}): TelegramEmulatorCore {
  const clock = options.clock ?? systemClock;
  const limits: TelegramLimits = { ...DEFAULT_TELEGRAM_LIMITS, ...options.limits };
  const tokens = new Set(options.botTokens ?? [DEFAULT_TELEGRAM_BOT.botToken]);
  const chats = new Map<number, TelegramChat>(
    (options.chats ?? [
      { id: DEFAULT_TELEGRAM_BOT.privateChat, type: 'private' },
      { id: DEFAULT_TELEGRAM_BOT.groupChat, type: 'supergroup', isForum: true, topics: [DEFAULT_TELEGRAM_BOT.topic] },
    ]).map((chat) => [chat.id, chat]),
  );
  const blocked = new Set<number>();
  const history = new CallHistory(clock);
  const inFlight = new InFlightTracker();
  const faults = new FaultInjector(clock, TELEGRAM_ROUTE_NAMES);
  const store = new TelegramStore();
  const changes = new ChangeFeed<TelegramChange>();
  const perChat = new SlidingWindowLimiter(limits.perChatWindows, clock);
  const perGroup = new SlidingWindowLimiter(limits.perGroupWindows, clock);
  const perBot = new SlidingWindowLimiter(limits.perBotWindows, clock);
  const perDraftChat = new SlidingWindowLimiter(limits.draftWindows, clock);

  const snapshot = (m: StoredTelegramMessage): TelegramMessageSnapshot => telegramSnapshot(m, history, inFlight);
  const notify = (kind: TelegramChange['kind'], m: StoredTelegramMessage) => {
    if (changes.size > 0) changes.emit({ platform: 'telegram', kind, at: clock(), message: snapshot(m) });
  };
  const liveDrafts = (chatId: number) => [...store.drafts.values()].filter((d) => d.chatId === chatId && d.expiresAt > clock());

  /** The chat a call names, or its error (unknown chat, blocked bot, unknown topic). */
  const chatOf = (args: Args): { chat?: TelegramChat; threadId?: number; error?: TelegramError } => {
    const id = toInt(args.chat_id);
    const chat = id === undefined ? undefined : chats.get(id);
    if (!chat) return { error: TelegramErrors.chatNotFound() };
    if (blocked.has(chat.id)) return { error: TelegramErrors.blocked() };
    const threadId = toInt(args.message_thread_id);
    if (threadId !== undefined && !(chat.isForum && chat.topics?.includes(threadId))) return { error: TelegramErrors.threadNotFound() };
    return { chat, threadId };
  };

  const content = (args: Args, allowEmpty: boolean) => messageContent(args, allowEmpty, limits);

  /**
   * Flood control: per chat, per group, per bot; drafts have their own per-chat window. A call is counted
   * when it arrives, before any injected latency (the Bot API counts incoming requests; a slow answer must
   * not move a call into a later window), and uncounted when it is then refused for another reason.
   */
  const FLOODED: Partial<Record<TelegramRoute, 'message' | 'draft'>> = { sendMessage: 'message', editMessageText: 'message', sendDocument: 'message', sendMessageDraft: 'draft' };
  const floodOnArrival = (route: TelegramRoute, args: Args, token: string): ArrivalCount => {
    const kind = FLOODED[route];
    const chat = kind && tokens.has(token) ? chatOf(args).chat : undefined;
    if (!kind || !chat) return countOnArrival([]);
    const draft = kind === 'draft';
    return countOnArrival([
      [perBot, token],
      [draft ? perDraftChat : perChat, String(chat.id)],
      ...(chat.type === 'private' || draft ? [] : [[perGroup, String(chat.id)] as const]),
    ]);
  };

  const run = async (c: Context, route: TelegramRoute, handler: (args: Args, token: string, flood: TelegramError | undefined) => Outcome, keyOf?: (args: Args) => string | undefined) => {
    const receivedAt = clock();
    const args = await readArgs(c);
    const token = (c.req.param('bot') ?? '').replace(/^bot/, '');
    const arrival = floodOnArrival(route, args, token);
    let accepted = false;
    const key = keyOf?.(args);
    const leave = key ? inFlight.enter(key) : () => {};
    try {
      const decision = faults.onCall(route, key);
      await delay(decision.latencyMs);
      if (decision.response) {
        const body = decision.response.body as { description?: unknown } | undefined;
        history.record({ route, key, outcome: 'rejected', status: decision.response.status, code: decision.response.status, msg: typeof body?.description === 'string' ? body.description : undefined, request: args, faultId: decision.responseRuleId, receivedAt });
        return new Response(JSON.stringify(decision.response.body ?? { ok: false, error_code: 500, description: 'Internal Server Error' }), {
          status: decision.response.status,
          headers: { 'content-type': 'application/json', ...decision.response.headers },
        });
      }
      const flood = arrival.refused && TelegramErrors.tooManyRequests(arrival.refused.retryAfterMs / 1000);
      const outcome = tokens.has(token) ? handler(args, token, flood) : fail(TelegramErrors.unauthorized(), key);
      if (outcome.ok) {
        accepted = true;
        history.record({ route, key: outcome.key ?? key, outcome: 'accepted', status: 200, code: 0, msg: 'ok', request: args, card: outcome.card, receivedAt });
        return c.json({ ok: true, result: outcome.result });
      }
      history.record({ route, key: outcome.key ?? key, outcome: 'rejected', status: outcome.error.error_code, code: outcome.error.error_code, msg: outcome.error.description, request: args, receivedAt });
      return new Response(JSON.stringify({ ok: false, ...outcome.error }), { status: outcome.error.error_code, headers: { 'content-type': 'application/json' } });
    } finally {
      if (!accepted) arrival.release();
      leave();
    }
  };

  const messageResult = (m: StoredTelegramMessage, chat: TelegramChat) => ({
    message_id: m.messageId,
    date: Math.floor(m.createdAt / 1000),
    ...(m.edits > 0 ? { edit_date: Math.floor(m.updatedAt / 1000) } : {}),
    chat: { id: chat.id, type: chat.type, ...(chat.isForum ? { is_forum: true } : {}) },
    from: { id: DEFAULT_TELEGRAM_BOT.botId, is_bot: true, first_name: 'progresscard' },
    ...(m.threadId !== undefined ? { message_thread_id: m.threadId, is_topic_message: true } : {}),
    ...(m.document ? { document: { file_id: m.document.fileId, file_unique_id: m.document.fileId.slice(-12), file_name: m.document.fileName, file_size: m.document.size }, ...(m.text ? { caption: m.text } : {}) } : { text: m.text }),
    ...(m.replyMarkup ? { reply_markup: m.replyMarkup } : {}),
  });

  const handlers: Record<TelegramRoute, [(args: Args, token: string, flood: TelegramError | undefined) => Outcome, ((args: Args) => string | undefined)?]> = {
    getMe: [() => ({ ok: true, result: { id: DEFAULT_TELEGRAM_BOT.botId, is_bot: true, first_name: 'progresscard', username: 'progresscard_bot' } })],
    sendMessage: [
      (args, token, flood) => {
        const target = chatOf(args);
        if (target.error) return fail(target.error);
        const chat = target.chat!;
        const body = content(args, false);
        if (body.error) return fail(body.error);
        const replyTo = toInt((args.reply_parameters as { message_id?: unknown } | undefined)?.message_id);
        if (flood) return fail(flood);
        const now = clock();
        const message = store.add({ chatId: chat.id, messageId: store.newId(chat.id), threadId: target.threadId, replyTo, source: body.source, parseMode: typeof args.parse_mode === 'string' ? args.parse_mode : undefined, text: body.text, replyMarkup: body.markup, state: 'live', createdAt: now, updatedAt: now, edits: 0, sentBy: botIdOf(token) });
        // "sending any message makes the draft disappear" (https://core.telegram.org/bots/api#sendmessagedraft)
        for (const draft of liveDrafts(chat.id)) store.drafts.delete(TelegramStore.key(chat.id, draft.draftId));
        notify('posted', message);
        return { ok: true, key: TelegramStore.key(chat.id, message.messageId), result: messageResult(message, chat), card: { text: body.source, reply_markup: body.markup } };
      },
    ],
    editMessageText: [
      (args, token, flood) => {
        const target = chatOf(args);
        const key = `${String(args.chat_id)}:${String(args.message_id)}`;
        if (target.error) return fail(target.error, key);
        const chat = target.chat!;
        const message = store.get(chat.id, toInt(args.message_id) ?? -1);
        if (!message || message.state === 'deleted') return fail(TelegramErrors.messageToEditNotFound(), key);
        if (message.state === 'edit-closed') return fail(TelegramErrors.messageCantBeEdited(), key);
        // A bot edits only its own messages (https://core.telegram.org/bots/api#updating-messages); the answer to another bot's is assumed to be this one (unconfirmed).
        if (message.sentBy !== undefined && message.sentBy !== botIdOf(token)) return fail(TelegramErrors.messageCantBeEdited(), key);
        const body = content(args, false);
        if (body.error) return fail(body.error, key);
        if (body.source === message.source && JSON.stringify(body.markup ?? null) === JSON.stringify(message.replyMarkup ?? null)) return fail(TelegramErrors.notModified(), key);
        if (flood) return fail(flood, key);
        message.source = body.source;
        message.text = body.text;
        message.replyMarkup = body.markup;
        message.updatedAt = clock();
        message.edits += 1;
        notify('updated', message);
        return { ok: true, key, result: messageResult(message, chat), card: { text: body.source, reply_markup: body.markup } };
      },
      (args) => `${String(args.chat_id)}:${String(args.message_id)}`,
    ],
    sendMessageDraft: [
      (args, _token, flood) => {
        const target = chatOf(args);
        if (target.error) return fail(target.error);
        const chat = target.chat!;
        if (chat.type !== 'private') return fail(TelegramErrors.draftPeerInvalid());
        const draftId = toInt(args.draft_id);
        if (!draftId) return fail(TelegramErrors.draftIdInvalid());
        const body = content(args, true);
        if (body.error) return fail(body.error);
        if (flood) return fail(flood);
        const now = clock();
        const dkey = TelegramStore.key(chat.id, draftId);
        const known = store.drafts.get(dkey);
        const draft: StoredTelegramDraft = { chatId: chat.id, draftId, source: body.source, text: body.text, updates: (known?.updates ?? 0) + 1, updatedAt: now, expiresAt: now + limits.draftLifetimeMs };
        store.drafts.set(dkey, draft);
        store.draftLog.push({ ...draft });
        if (changes.size > 0) changes.emit({ platform: 'telegram', kind: 'draft', at: now, draft: { ...draft } });
        return { ok: true, key: `draft:${dkey}`, result: true, card: { text: body.source } };
      },
    ],
    // A document uploaded as multipart (https://core.telegram.org/bots/api#senddocument): 50 MB at most; a caption of up to 1024 characters.
    sendDocument: [
      (args, _token, flood) => {
        const target = chatOf(args);
        if (target.error) return fail(target.error);
        const chat = target.chat!;
        const file = uploadedFile(args.document);
        if (!file || file.bytes.length === 0) return fail(TelegramErrors.documentMissing());
        if (file.bytes.length > limits.maxDocumentBytes) return fail(TelegramErrors.entityTooLarge());
        const caption = typeof args.caption === 'string' ? args.caption : '';
        if (caption.length > 1024) return fail(TelegramErrors.messageTooLong());
        if (flood) return fail(flood);
        const replyTo = toInt((args.reply_parameters as { message_id?: unknown } | undefined)?.message_id);
        const now = clock();
        const messageId = store.newId(chat.id);
        const document = { fileId: `BQACAgIAAx0C${chat.id}_${messageId}`, fileName: file.filename, size: file.bytes.length, bytes: file.bytes };
        const message = store.add({ chatId: chat.id, messageId, threadId: target.threadId, replyTo, source: caption, text: caption, state: 'live', createdAt: now, updatedAt: now, edits: 0, document });
        notify('posted', message);
        return { ok: true, key: TelegramStore.key(chat.id, messageId), result: messageResult(message, chat) };
      },
    ],
    answerCallbackQuery: [(args) => (callbacks.answer(args) ? { ok: true, result: true } : fail(TelegramErrors.queryTooOld()))],
    deleteMessage: [
      (args) => {
        const target = chatOf(args);
        if (target.error) return fail(target.error);
        const message = store.get(target.chat!.id, toInt(args.message_id) ?? -1);
        if (!message || message.state === 'deleted') return fail(TelegramErrors.messageToDeleteNotFound());
        message.state = 'deleted';
        notify('deleted', message);
        return { ok: true, result: true };
      },
    ],
  };

  const app = new Hono();
  const callbacks = new TelegramCallbacks(store, history, clock, limits);
  // Method names are case-insensitive (https://core.telegram.org/bots/api#making-requests).
  const byName = new Map(TELEGRAM_ROUTE_NAMES.map((route) => [route.toLowerCase(), route]));
  app.on(['GET', 'POST'], '/:bot/:method', (c) => {
    const route = byName.get(c.req.param('method').toLowerCase());
    if (!route || !c.req.param('bot').startsWith('bot')) return c.json({ ok: false, error_code: 404, description: 'Not Found' }, 404);
    const [handler, keyOf] = handlers[route];
    return run(c, route, handler, keyOf);
  });
  app.notFound((c) => c.json({ ok: false, error_code: 404, description: 'Not Found' }, 404));
  app.onError((error, c) => c.json({ ok: false, error_code: 500, description: `Internal Server Error: (emulator) ${error.message}` }, 500));

  const control = (chatId: number, messageId: number, to: TelegramMessageState, kind: TelegramChange['kind']) => {
    const message = store.transition(chatId, messageId, to);
    notify(kind, message);
    return snapshot(message);
  };
  return {
    app,
    limits,
    faults,
    messages: (filter = {}) => store.list().filter((m) => filter.chatId === undefined || m.chatId === filter.chatId).map(snapshot),
    message: (chatId, messageId) => {
      const found = store.get(chatId, messageId);
      return found ? snapshot(found) : undefined;
    },
    drafts: (chatId) => liveDrafts(chatId).map((d) => ({ ...d })),
    draftLog: (chatId) => store.draftLog.filter((d) => chatId === undefined || d.chatId === chatId).map((d) => ({ ...d })),
    calls: (filter) => history.list(filter),
    counts: () => history.counts(),
    onChange: (listener) => changes.subscribe(listener),
    deleteMessage: (chatId, messageId) => control(chatId, messageId, 'deleted', 'deleted'),
    closeEdits: (chatId, messageId) => control(chatId, messageId, 'edit-closed', 'edit-closed'),
    blockBot: (chatId) => {
      if (chats.get(chatId)?.type !== 'private') throw new TelegramControlError(`chat ${chatId} is not a private chat of the bot`);
      blocked.add(chatId);
    },
    setWebhook: (config) => callbacks.configure(config),
    click: (click) => callbacks.click(click),
  };
}

/** The bot id of a token: the number before its colon. */
function botIdOf(token: string): string {
  return token.slice(0, token.indexOf(':'));
}

/**
 * Starts the Telegram emulator on loopback HTTP: Bot API methods at `${apiRoot}/bot<token>/<method>`.
 * @throws the listen error (e.g. `EADDRINUSE`).
 */
export async function startTelegramEmulator(options: TelegramEmulatorOptions = {}): Promise<TelegramEmulator> {
  const core = createTelegramEmulator(options);
  const server = await listen(core.app, { host: options.host, port: options.port, allowedHosts: options.allowedHosts });
  return Object.assign(core, { baseUrl: server.baseUrl, apiRoot: server.baseUrl, port: server.port, close: server.close });
}

export { TelegramControlError };
export type { TelegramMessageSnapshot } from './snapshot.js';
