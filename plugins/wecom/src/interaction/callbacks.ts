import type { CardRenderer, ChannelInteraction, ClickHandler } from '@progresscard/core/plugin';
import type { WeComPayload } from '../render/payload.js';
import type { WeComTransport } from '../transport/transport.js';
import type { Turns } from '../transport/turns.js';
import { clickOf, updateCardAnswer, type TemplateCardEvent } from './card-events.js';
import { type CallbackAnswer, type CallbackEnvelope, CallbackRefused, type CallbackRequest } from './envelope.js';

export type { CallbackAnswer, CallbackRequest } from './envelope.js';
import { WeComHttpServer } from './http-server.js';

/** A user's message to the bot, handed to {@link WeComCallbacks.onMessage} listeners. */
export interface WeComInboundMessage {
  /** Give it to `cards.open('wecom', message.target)`: the card answers this message. */
  readonly target: { readonly msgid: string };
  readonly msgid: string;
  readonly msgtype: string;
  /** The text of a `text` message (`@bot` mention included, as WeCom sends it), else ''. */
  readonly text: string;
  readonly from: { readonly userid: string };
  readonly chatType: 'single' | 'group';
  readonly chatId?: string;
  /** The decrypted callback as WeCom sent it (https://developer.work.weixin.qq.com/document/path/100719). */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** Options of {@link WeComCallbacks}; durations in ms. */
export interface WeComCallbacksOptions {
  readonly envelope: CallbackEnvelope;
  /** The bot's id (`aibotid`): callbacks for another bot are refused. Absent: not checked. */
  readonly botId?: string;
  readonly host: string;
  readonly port: number;
  readonly path: string;
  readonly turns: Turns;
  readonly transport: WeComTransport;
  readonly renderer: CardRenderer<WeComPayload>;
  readonly now: () => number;
  readonly newStreamId: () => string;
}

type MessageListener = (message: WeComInboundMessage) => void;

/**
 * The bot's callback URL (WeCom AI bot callback mode, https://developer.work.weixin.qq.com/document/path/100719):
 * answers the URL check (`GET … echostr`), takes each user message (answering with a new stream and
 * telling {@link onMessage} listeners, who open a card for it), answers WeCom's stream refresh polls
 * from the cards' latest state, and routes `template_card_event` clicks to the core. Every request
 * is verified (`msg_signature`), checked against replays and decrypted; a refused one is answered
 * 403. The app starts it with {@link listen} (or mounts {@link handle} in its own HTTP server); the
 * core calls `start` when a card first shows buttons.
 */
export class WeComCallbacks implements ChannelInteraction {
  private readonly listeners = new Set<MessageListener>();
  private readonly server: WeComHttpServer;
  private onClick: ClickHandler | undefined;
  /** Callbacks refused so far, with why (for tests and `doctor`). */
  readonly refused: { at: number; reason: string }[] = [];

  constructor(private readonly options: WeComCallbacksOptions) {
    this.server = new WeComHttpServer(options.host, options.port, options.path, (request) => this.handle(request));
  }

  /** The callback URL once listening (register the public URL in front of it with WeCom). */
  get url(): string | undefined {
    return this.server.url;
  }

  /** Calls `listener` for every new user message (a repeated callback is not told twice). Returns the unsubscribe. */
  onMessage(listener: MessageListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Listens on the configured host and port; returns the URL. @throws the listen error (e.g. `EADDRINUSE`). */
  listen(): Promise<string> {
    return this.server.listen();
  }

  async start(onClick: ClickHandler): Promise<void> {
    this.onClick = onClick;
    await this.listen();
  }

  async stop(): Promise<void> {
    this.onClick = undefined;
    await this.server.close();
  }

  /** Answers one callback request; never throws (a bad one is answered 400 or 403). */
  async handle(request: CallbackRequest): Promise<CallbackAnswer> {
    try {
      if (request.method === 'GET') {
        if (!request.query.echostr) return { status: 400, body: 'missing echostr' };
        return { status: 200, body: this.options.envelope.open(request.query, request.query.echostr) };
      }
      if (request.method !== 'POST') return { status: 404, body: 'not found' };
      let encrypt: unknown;
      try {
        const envelope = JSON.parse(request.body) as { encrypt?: unknown; Encrypt?: unknown };
        encrypt = envelope.encrypt ?? envelope.Encrypt;
      } catch {
        encrypt = undefined;
      }
      if (typeof encrypt !== 'string') return this.refuse(400, 'body is not {"encrypt": "…"}');
      const plain = JSON.parse(this.options.envelope.open(request.query, encrypt)) as Record<string, unknown>;
      if (this.options.botId !== undefined && plain.aibotid !== this.options.botId) return this.refuse(403, `aibotid ${JSON.stringify(plain.aibotid)} is not this bot`);
      const reply = this.dispatch(plain);
      return { status: 200, body: reply === undefined ? '' : this.options.envelope.seal(reply, request.query.timestamp) };
    } catch (error) {
      if (error instanceof CallbackRefused) return this.refuse(403, error.message);
      return this.refuse(400, `unreadable callback: ${(error as Error).message}`);
    }
  }

  private refuse(status: 400 | 403, reason: string): CallbackAnswer {
    this.refused.push({ at: this.options.now(), reason });
    return { status, body: `refused: ${reason}` };
  }

  /** The plaintext reply to a decrypted callback, or undefined for an empty 200. */
  private dispatch(plain: Record<string, unknown>): unknown {
    const msgtype = String(plain.msgtype ?? '');
    if (msgtype === 'stream') {
      const id = (plain.stream as { id?: unknown } | undefined)?.id;
      return typeof id === 'string' ? this.options.transport.answerPoll(id) : undefined;
    }
    if (msgtype === 'event') {
      const event = plain.event as { eventtype?: unknown; template_card_event?: TemplateCardEvent } | undefined;
      if (event?.eventtype !== 'template_card_event' || !event.template_card_event || !this.onClick) return undefined;
      const click = clickOf(event.template_card_event, plain);
      if (!click) return undefined;
      return updateCardAnswer(this.onClick(click), event.template_card_event.task_id, this.options.renderer);
    }
    return this.message(plain, msgtype);
  }

  /** A user message: a stream that answers it (empty until a card takes it: WeCom shows its thinking animation). */
  private message(plain: Record<string, unknown>, msgtype: string): unknown {
    const msgid = String(plain.msgid ?? '');
    const userid = String((plain.from as { userid?: unknown } | undefined)?.userid ?? '');
    if (msgid === '' || userid === '') throw new Error('a message callback without msgid or from.userid');
    const chatType = plain.chattype === 'group' ? 'group' : 'single';
    const chatId = typeof plain.chatid === 'string' ? plain.chatid : undefined;
    const responseUrl = typeof plain.response_url === 'string' ? plain.response_url : undefined;
    const { turn, repeated } = this.options.turns.open(msgid, () => ({
      msgid,
      streamId: this.options.newStreamId(),
      userId: userid,
      chatType,
      receivedAt: this.options.now(),
      ...(chatId === undefined ? {} : { chatId }),
      ...(responseUrl === undefined ? {} : { responseUrl }),
    }));
    if (!repeated) {
      const text = msgtype === 'text' ? String((plain.text as { content?: unknown } | undefined)?.content ?? '') : '';
      const inbound: WeComInboundMessage = { target: { msgid }, msgid, msgtype, text, from: { userid }, chatType, ...(chatId === undefined ? {} : { chatId }), raw: plain };
      for (const listener of this.listeners) {
        try {
          listener(inbound);
        } catch {
          // A listener's own failure must not cost the user the stream reply.
        }
      }
    }
    return this.options.transport.answerPoll(turn.streamId);
  }
}
