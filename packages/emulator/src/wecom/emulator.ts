import { Hono } from 'hono';
import { randomBytes } from 'node:crypto';
import { ChangeFeed } from '../common/changes.js';
import { systemClock, type Clock } from '../common/clock.js';
import { FaultInjector, type FaultResponse } from '../common/faults.js';
import { listen, type RunningServer } from '../common/server.js';
import { WeComCipher } from './crypto.js';
import { DEFAULT_WECOM_LIMITS, WECOM_CODES, type WeComLimits } from './limits.js';
import { WeComMessages, type WeComMessageSnapshot, type WeComStream } from './messages.js';

/** One callback as WeCom sends it to the bot's URL: query and body. */
export interface WeComCallbackRequest {
  readonly method: 'GET' | 'POST';
  readonly query: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Delivers a callback to the bot and returns its answer (HTTP by default; in-process in fake-time tests). */
export type WeComDeliver = (request: WeComCallbackRequest) => Promise<{ status: number; body: string }>;

/** The bot the emulator knows when no options are given (made-up secrets). */
export const DEFAULT_WECOM_BOT = {
  token: 'progresscardEmulator',
  encodingAESKey: 'cHJvZ3Jlc3NjYXJkLWVtdWxhdG9yLWFlcy1rZXktMDE',
  botId: 'aib_progresscard_emulator',
} as const;

/** Options of {@link WeComEmulator}. */
export interface WeComEmulatorOptions {
  readonly token: string;
  readonly encodingAESKey: string;
  readonly botId?: string;
  /** The bot's callback URL (HTTP delivery; or set it later with {@link WeComEmulator.connect}), or… */
  readonly callbackUrl?: string;
  /** …a function that delivers callbacks in-process. */
  readonly deliver?: WeComDeliver;
  readonly limits?: Partial<WeComLimits>;
  readonly clock?: Clock;
  readonly host?: string;
  readonly port?: number;
}

/** A change of a message (for the preview page). */
export interface WeComChange {
  readonly platform: 'wecom';
  readonly message: WeComMessageSnapshot;
}

/** What a user's message got: the stream WeCom opened for it, or why none. */
export type UserMessageResult = { readonly ok: true; readonly msgid: string; readonly streamId: string } | { readonly ok: false; readonly msgid: string; readonly reason: string };

/**
 * A WeCom AI bot (callback mode) as the bot sees it: users' messages arrive encrypted and signed,
 * the bot's encrypted stream reply is verified, and the stream is then polled about once a second
 * until the bot finishes it or 6 minutes pass; `response_url` takes one plaintext post within an
 * hour. Faults (route `response_url`), forged and replayed callbacks, and a read-back of what the
 * user sees. Time-dependent rules read `clock`; polls are scheduled with `setTimeout`.
 */
export class WeComEmulator {
  readonly limits: WeComLimits;
  readonly faults: FaultInjector;
  readonly changes = new ChangeFeed<WeComChange>();
  private readonly cipher: WeComCipher;
  private readonly clock: Clock;
  private readonly messages = new WeComMessages();
  private readonly responseUrls = new Map<string, { streamId: string; issuedAt: number; used: boolean }>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private server: RunningServer | undefined;
  private lastRequest: WeComCallbackRequest | undefined;
  private lastUserMessage: object | undefined;
  private closed = false;
  private seq = 0;
  private callbackUrl: string | undefined;
  private readonly cleanups: (() => Promise<void>)[] = [];
  private pollsInFlight = 0;
  private settledWaiters: (() => void)[] = [];

  constructor(private readonly options: WeComEmulatorOptions) {
    this.limits = { ...DEFAULT_WECOM_LIMITS, ...options.limits };
    this.clock = options.clock ?? systemClock;
    this.cipher = new WeComCipher(options.token, options.encodingAESKey);
    this.faults = new FaultInjector(this.clock);
    this.callbackUrl = options.callbackUrl;
  }

  /** The `response_url` server's base URL, once started. */
  get baseUrl(): string {
    return this.server?.baseUrl ?? '';
  }

  /** Points the emulator at the bot's callback URL (HTTP delivery). */
  connect(callbackUrl: string): void {
    this.callbackUrl = callbackUrl;
  }

  /** Subscribes to message changes; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    return this.changes.subscribe(() => listener());
  }

  /** Listens for `response_url` posts; returns the base URL. */
  async start(): Promise<string> {
    const app = new Hono();
    app.post('/cgi-bin/aibot/response', async (c) => {
      const answer = await this.respond(c.req.query('response_code') ?? '', await c.req.text());
      return c.json(answer.body as object, answer.status as 200);
    });
    this.server = await listen(app, { host: this.options.host, port: this.options.port });
    return this.server.baseUrl;
  }

  /** A `fetch` for `response_url` posts that never leaves the process (fake-time tests). */
  readonly fetch = async (url: string, init: { body: string }): Promise<{ status: number; text(): Promise<string> }> => {
    const answer = await this.respond(new URL(url).searchParams.get('response_code') ?? '', init.body);
    return { status: answer.status, text: async () => JSON.stringify(answer.body) };
  };

  /** A user sends the bot a text message; resolves once the bot answered the callback. */
  async sendUserMessage(message: { userid: string; text: string; chatid?: string }): Promise<UserMessageResult> {
    const msgid = `msg${++this.seq}${randomBytes(4).toString('hex')}`;
    const busy = this.messages.liveStreams(message.userid, this.clock(), this.limits.streamWindowMs).length;
    if (busy >= this.limits.maxInteractionsPerUser) return { ok: false, msgid, reason: `user ${message.userid} has ${busy} messages in interaction (limit ${this.limits.maxInteractionsPerUser})` };
    const responseCode = randomBytes(12).toString('hex');
    const plain = {
      msgid,
      aibotid: this.options.botId ?? 'AIBOTID',
      ...(message.chatid ? { chatid: message.chatid, chattype: 'group' } : { chattype: 'single' }),
      from: { userid: message.userid },
      create_time: Math.floor(this.clock() / 1000),
      response_url: this.responseUrlFor(responseCode),
      msgtype: 'text',
      text: { content: message.text },
    };
    this.lastUserMessage = plain;
    const reply = await this.callback(plain);
    const stream = reply.ok ? (reply.plain as { msgtype?: string; stream?: { id?: string } }) : undefined;
    if (!reply.ok || !stream?.stream?.id) return { ok: false, msgid, reason: reply.ok ? 'the bot answered without a stream' : reply.reason };
    const opened = this.messages.openStream({ streamId: stream.stream.id, msgid, userid: message.userid, openedAt: this.clock(), ...(message.chatid ? { chatid: message.chatid } : {}) });
    this.responseUrls.set(responseCode, { streamId: opened.id, issuedAt: this.clock(), used: false });
    this.apply(opened, reply.plain);
    this.schedulePoll(opened);
    return { ok: true, msgid, streamId: opened.id };
  }

  /**
   * WeCom's URL check, as the console runs it when the URL is saved: a signed `GET` with an
   * encrypted `echostr`; true when the bot answered the decrypted value.
   */
  async verifyUrl(): Promise<boolean> {
    const echo = randomBytes(8).toString('hex');
    const echostr = this.cipher.encrypt(echo);
    const timestamp = String(Math.floor(this.clock() / 1000));
    const nonce = randomBytes(6).toString('hex');
    try {
      const answer = await this.deliver({ method: 'GET', query: { msg_signature: this.cipher.sign(timestamp, nonce, echostr), timestamp, nonce, echostr }, body: '' });
      return answer.status === 200 && answer.body === echo;
    } catch {
      return false;
    }
  }

  /** Streams of user messages no bot answer has shown content on yet. */
  waitingStreams(): number {
    return this.messages.waiting();
  }

  /** A user clicks the button with `key` on the template card of `streamId`; resolves when the bot answered. */
  async click(streamId: string, userid: string, key: string): Promise<{ ok: boolean; reason?: string }> {
    const stream = this.messages.stream(streamId);
    const card = stream?.card as { task_id?: string; button_list?: { key: string }[] } | undefined;
    if (!stream || !card?.button_list?.some((b) => b.key === key)) return { ok: false, reason: `no button ${key} on stream ${streamId}` };
    const reply = await this.callback({
      msgid: `evt${++this.seq}${randomBytes(4).toString('hex')}`,
      aibotid: this.options.botId ?? 'AIBOTID',
      chattype: stream.chatid ? 'group' : 'single',
      ...(stream.chatid ? { chatid: stream.chatid } : {}),
      from: { userid },
      create_time: Math.floor(this.clock() / 1000),
      response_url: this.responseUrlFor(randomBytes(12).toString('hex')),
      msgtype: 'event',
      event: { eventtype: 'template_card_event', template_card_event: { card_type: 'button_interaction', event_key: key, task_id: card.task_id } },
    });
    if (!reply.ok) return { ok: false, reason: reply.reason };
    const update = reply.plain as { response_type?: string; template_card?: { task_id?: string } } | undefined;
    if (update?.response_type === 'update_template_card' && update.template_card) {
      if (update.template_card.task_id !== card.task_id) return { ok: false, reason: 'update_template_card changed the task_id' };
      stream.card = update.template_card;
      this.changed(stream);
    }
    return { ok: true };
  }

  /**
   * WeCom sends the last user message's callback again (same `msgid`, a fresh timestamp, nonce and
   * signature), as it does when the bot's answer was late; returns the stream id the bot answered with.
   */
  async repeatLastUserMessage(): Promise<string | undefined> {
    if (!this.lastUserMessage) throw new Error('repeatLastUserMessage: no user message was sent yet');
    const reply = await this.callback(this.lastUserMessage);
    return reply.ok ? (reply.plain as { stream?: { id?: string } } | undefined)?.stream?.id : undefined;
  }

  /** Sends a callback signed with the wrong token; returns the bot's HTTP status (403 expected). */
  async forgeCallback(): Promise<number> {
    const encrypt = this.cipher.encrypt(JSON.stringify({ msgid: 'forged', msgtype: 'text', from: { userid: 'mallory' }, text: { content: 'hi' } }));
    const timestamp = String(Math.floor(this.clock() / 1000));
    const query = { msg_signature: 'f'.repeat(40), timestamp, nonce: 'forged' };
    return (await this.deliver({ method: 'POST', query, body: JSON.stringify({ encrypt }) })).status;
  }

  /** Sends the last callback again, byte for byte; returns the bot's HTTP status (403 expected). */
  async replayLastCallback(): Promise<number> {
    if (!this.lastRequest) throw new Error('replayLastCallback: no callback was sent yet');
    return (await this.deliver(this.lastRequest)).status;
  }

  /** The stream is dropped (the user deleted it, or WeCom gave up on it): no more polls. */
  drop(streamId: string, errcode: number = WECOM_CODES.streamExpired): void {
    const stream = this.messages.stream(streamId);
    if (stream && !stream.ended) this.end(stream, errcode);
  }

  /** Every message the users see, in the order they appeared. */
  snapshot(): WeComMessageSnapshot[] {
    return this.messages.snapshot();
  }

  /** Runs `cleanup` when the emulator closes (e.g. stops the bot's callback server it talks to). */
  closeWith(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  /** Stops polling and the server (and runs the {@link closeWith} cleanups). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled(this.cleanups.splice(0).map((cleanup) => cleanup()));
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await this.server?.close();
  }

  private responseUrlFor(code: string): string {
    return `${this.server?.baseUrl ?? 'http://127.0.0.1:9'}/cgi-bin/aibot/response?response_code=${code}`;
  }

  private schedulePoll(stream: WeComStream): void {
    if (this.closed || stream.ended) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.poll(stream);
    }, this.limits.pollIntervalMs);
    this.timers.add(timer);
  }

  /** One stream refresh callback: the bot's answer becomes what the user sees. */
  private async poll(stream: WeComStream): Promise<void> {
    if (this.closed || stream.ended) return;
    const now = this.clock();
    if (now - stream.openedAt >= this.limits.streamWindowMs) return this.end(stream, WECOM_CODES.streamExpired);
    const leave = stream.inFlight.enter(stream.id);
    this.pollsInFlight += 1;
    try {
      const reply = await this.callback({ msgid: `poll${++this.seq}`, aibotid: this.options.botId ?? 'AIBOTID', from: { userid: stream.userid }, msgtype: 'stream', stream: { id: stream.id } });
      if (this.closed || stream.ended) return;
      stream.polls += 1;
      if (reply.ok && this.apply(stream, reply.plain)) stream.lastGoodPollAt = this.clock();
      else if (this.clock() - stream.lastGoodPollAt >= this.limits.idleExpiryMs) return this.end(stream, WECOM_CODES.streamExpired);
      this.schedulePoll(stream);
    } finally {
      leave();
      this.pollsInFlight -= 1;
      if (this.pollsInFlight === 0) for (const resolve of this.settledWaiters.splice(0)) resolve();
    }
  }

  /** Resolves once no poll is in flight: every answer the bot gave so far is applied. */
  settled(): Promise<void> {
    if (this.pollsInFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /** Applies a stream reply; false when it is not one or breaks a limit (the user keeps the previous content). */
  private apply(stream: WeComStream, plain: unknown): boolean {
    const reply = plain as { msgtype?: string; stream?: { id?: string; finish?: boolean; content?: string }; template_card?: unknown } | undefined;
    if (!reply?.stream || reply.stream.id !== stream.id) return false;
    const content = reply.stream.content ?? '';
    const at = this.clock();
    if (Buffer.byteLength(content, 'utf8') > this.limits.streamBytes) {
      stream.calls.push({ op: stream.calls.length === 0 ? 'send' : 'update', at, refused: true, text: stream.content });
      return false;
    }
    if (reply.msgtype === 'stream_with_template_card' && reply.template_card && stream.card === undefined) stream.card = reply.template_card;
    const changed = content !== stream.content || reply.stream.finish === true;
    if (content.trim() !== '' && changed) {
      stream.calls.push({ op: stream.shownAt === undefined ? 'send' : 'update', at, refused: false, text: content });
      stream.shownAt ??= at;
      stream.content = content;
    }
    if (reply.stream.finish === true) this.end(stream);
    else if (changed) this.changed(stream);
    return true;
  }

  private end(stream: WeComStream, errcode?: number): void {
    stream.ended = true;
    if (errcode !== undefined) stream.expiredWith = errcode;
    else stream.finished = true;
    this.changed(stream);
  }

  /** A `response_url` post: single use, one hour, plaintext markdown. */
  private async respond(code: string, body: string): Promise<{ status: number; body: unknown }> {
    const issued = this.responseUrls.get(code);
    const decision = this.faults.onCall('response_url', issued?.streamId);
    const refuse = (answer: FaultResponse) => {
      if (issued) this.messages.replyCall(issued.streamId, this.clock(), true);
      return { status: answer.status, body: answer.body };
    };
    if (decision.response) return refuse(decision.response);
    if (!issued) return { status: 200, body: { errcode: 40078, errmsg: 'invalid response_code (emulator)' } };
    if (issued.used) return refuse({ status: 200, body: { errcode: WECOM_CODES.responseUrlUsed, errmsg: 'response_url already used (emulator code; real code UNCONFIRMED)' } });
    if (this.clock() - issued.issuedAt >= this.limits.responseUrlTtlMs) return refuse({ status: 200, body: { errcode: WECOM_CODES.responseUrlExpired, errmsg: 'response_url expired (emulator code; real code UNCONFIRMED)' } });
    let parsed: { msgtype?: string; markdown?: { content?: string } };
    try {
      parsed = JSON.parse(body) as typeof parsed;
    } catch {
      return { status: 200, body: { errcode: 47001, errmsg: 'data format error' } };
    }
    const content = parsed.msgtype === 'markdown' ? parsed.markdown?.content : undefined;
    if (typeof content !== 'string' || Buffer.byteLength(content, 'utf8') > this.limits.streamBytes) return refuse({ status: 200, body: { errcode: 40058, errmsg: 'markdown.content missing or over 20480 bytes' } });
    issued.used = true;
    const reply = this.messages.reply(issued.streamId, content, this.clock());
    this.changes.emit({ platform: 'wecom', message: reply });
    return { status: 200, body: { errcode: 0, errmsg: 'ok' } };
  }

  /** Encrypts, signs and delivers `plain`; verifies and decrypts the bot's answer. */
  private async callback(plain: object): Promise<{ ok: true; plain: unknown } | { ok: false; reason: string }> {
    const encrypt = this.cipher.encrypt(JSON.stringify(plain));
    const timestamp = String(Math.floor(this.clock() / 1000));
    const nonce = randomBytes(6).toString('hex');
    const request: WeComCallbackRequest = { method: 'POST', query: { msg_signature: this.cipher.sign(timestamp, nonce, encrypt), timestamp, nonce }, body: JSON.stringify({ encrypt }) };
    this.lastRequest = request;
    let answer: { status: number; body: string };
    try {
      answer = await this.deliver(request);
    } catch (error) {
      return { ok: false, reason: `callback failed: ${(error as Error).message}` };
    }
    if (answer.status !== 200) return { ok: false, reason: `bot answered HTTP ${answer.status}` };
    if (answer.body === '') return { ok: true, plain: undefined };
    try {
      const sealed = JSON.parse(answer.body) as { encrypt: string; msgsignature: string; timestamp: string; nonce: string };
      if (this.cipher.sign(sealed.timestamp, sealed.nonce, sealed.encrypt) !== sealed.msgsignature) return { ok: false, reason: 'reply signature does not match' };
      return { ok: true, plain: JSON.parse(this.cipher.decrypt(sealed.encrypt)) };
    } catch (error) {
      return { ok: false, reason: `unreadable reply: ${(error as Error).message}` };
    }
  }

  private async deliver(request: WeComCallbackRequest): Promise<{ status: number; body: string }> {
    if (this.options.deliver) return this.options.deliver(request);
    if (!this.callbackUrl) throw new Error('WeComEmulator: give callbackUrl (or connect()) or deliver');
    const url = new URL(this.callbackUrl);
    for (const [name, value] of Object.entries(request.query)) url.searchParams.set(name, value);
    const response = await fetch(url, { method: request.method, headers: { 'content-type': 'application/json' }, ...(request.method === 'POST' ? { body: request.body } : {}), signal: AbortSignal.timeout(this.limits.pollTimeoutMs) });
    return { status: response.status, body: await response.text() };
  }

  private changed(stream: WeComStream): void {
    this.changes.emit({ platform: 'wecom', message: this.messages.snapshotOf(stream) });
  }
}

/** Starts a {@link WeComEmulator} with its `response_url` server listening. */
export async function startWeComEmulator(options: WeComEmulatorOptions): Promise<WeComEmulator> {
  const emulator = new WeComEmulator(options);
  await emulator.start();
  return emulator;
}
