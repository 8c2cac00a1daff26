import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { randomHex } from '../common/ids.js';
import type { FeishuContext } from './context.js';
import type { FeishuLongConnectionHub } from './long-connection.js';

/**
 * Card callbacks sent to the app's "callback request URL", as configured in the developer console
 * (https://open.feishu.cn/document/uAjLw4CM/ukTMukTMukTM/event-subscription-guide/callback-subscription/step-1-choose-a-subscription-mode/send-callbacks-to-developers-server).
 */
export interface FeishuHttpCallbackConfig {
  readonly url: string;
  /** Sent as `header.token` (and checked by the app). */
  readonly verificationToken?: string;
  /** With it, bodies are encrypted (`{ encrypt }`) and signed (`X-Lark-Signature`), as Feishu does. */
  readonly encryptKey?: string;
  /** How long the app has to answer, in ms (Feishu: 3000). */
  readonly timeoutMs?: number;
}

/**
 * Card callbacks pushed over the long connection (the console's "receive callbacks through a long
 * connection" mode): to a client of the app connected through `/callback/ws/endpoint`, in plain
 * JSON, re-pushed when not answered within `timeoutMs`
 * (https://open.feishu.cn/document/ukTMukTMukTM/uYDNxYjL2QTM24iN0EjN/event-subscription-configure-/request-url-configuration-case).
 */
export interface FeishuLongConnectionCallbackConfig {
  readonly mode: 'long-connection';
  /** How long the client has to answer one push, in ms (Feishu: 3000). */
  readonly timeoutMs?: number;
  /**
   * Re-pushes of a callback nobody answered, with the same `event_id` (default 1). The doc says a
   * message not answered in 3 s is re-pushed; how often for a card callback is not documented.
   */
  readonly retries?: number;
  /**
   * Test seam: this many of the client's answers (ACKs) are lost, as on a flaky network, so the
   * callback is re-pushed although the app handled it (default 0).
   */
  readonly lostAnswers?: number;
}

/** Where the emulator delivers card callbacks: a request URL or the long connection. */
export type FeishuCallbackConfig = FeishuHttpCallbackConfig | FeishuLongConnectionCallbackConfig;

/** A click a test makes on a card button, as a Feishu user would. */
export interface FeishuClick {
  readonly messageId: string;
  /** The clicking user's open_id. */
  readonly user: string;
  /** Display name sent as `operator.name` (optional). */
  readonly name?: string;
  /** The button: its `element_id` or its label text. */
  readonly button: string;
  /** Text typed into the form's input (a form submit button). */
  readonly input?: string;
  /**
   * The card the user's client shows, when it is not the current one (a client that has not
   * caught up, or an earlier message of the run): its button is clicked. Default the current card.
   */
  readonly shownCard?: Record<string, unknown>;
}

/**
 * What came of a delivered callback. `error`:
 * - `callbacks-not-configured`: the app has no callback configured; Feishu shows the user an error
 *   and nothing is sent (the console's "Callback Configuration" must add `card.action.trigger`);
 * - `not-connected`: long-connection mode, but no client of the app is connected;
 * - `no-such-button` / `not-a-callback-button`: the test named a button the card does not have;
 * - `timeout`: the app did not answer within `timeoutMs` (after the re-pushes, on the long connection);
 * - `http-error`: the app answered with a non-2xx status (or, on the long connection, its handler failed).
 */
export interface FeishuCallbackResult {
  readonly eventId?: string;
  readonly status?: number;
  /** The app's response body (parsed). */
  readonly response?: Record<string, unknown>;
  /** True when the response carried a card and the emulator showed it in place. */
  readonly cardUpdated: boolean;
  /**
   * Set when the response carried a card that was not shown: `streaming`, the message's card
   * entity was in streaming mode, whose cards a callback cannot update at once (Feishu's rule).
   */
  readonly cardNotShown?: 'streaming';
  readonly error?: 'callbacks-not-configured' | 'not-connected' | 'no-such-button' | 'not-a-callback-button' | 'timeout' | 'http-error';
  /**
   * What the clicking user's client shows when the callback failed: Feishu's "出错了，请稍后再试"
   * with a code. The code users report for a click no app answered is 200340 (field reports, e.g.
   * https://github.com/NousResearch/hermes-agent/issues/10251; not in Feishu's code tables).
   */
  readonly clientError?: { readonly code: number; readonly message: string };
  /** Pushes made over the long connection (1 + re-pushes); absent for HTTP. */
  readonly pushes?: number;
}

/** What the client shows for a failed callback (see {@link FeishuCallbackResult.clientError}). */
const CLIENT_ERROR = { code: 200340, message: '出错了，请稍后再试' } as const;

/** Route name of delivered callbacks in the call history. */
export const CARD_CALLBACK_ROUTE = 'callback.card.action.trigger';

type Json = Record<string, unknown>;

/** The `button` (nested in forms too) whose element_id or label is `name`, and its enclosing form. */
function findButton(card: Json | undefined, name: string): { button: Json; form?: Json } | undefined {
  const walk = (elements: unknown, form: Json | undefined): { button: Json; form?: Json } | undefined => {
    if (!Array.isArray(elements)) return undefined;
    for (const e of elements as Json[]) {
      const label = (e.text as Json | undefined)?.content;
      if (e.tag === 'button' && (e.element_id === name || label === name)) return { button: e, form };
      const inner = walk(e.elements, e.tag === 'form' ? e : form) ?? walk(e.columns, form);
      if (inner) return inner;
    }
    return undefined;
  };
  return walk((card?.body as Json | undefined)?.elements, undefined);
}

function encrypt(plain: string, key: string): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', createHash('sha256').update(key).digest(), iv);
  return Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
}

/** How the app answered one delivery (the HTTP response, or the long connection's ACK). */
type Answered =
  | { readonly status: number; readonly response?: Json; readonly pushes?: number }
  | { readonly error: 'timeout' | 'http-error' | 'not-connected'; readonly status?: number; readonly response?: Json; readonly pushes?: number };

/** Card callbacks of one emulator: configuration, clicks, retries of a delivered callback. */
export class FeishuCallbacks {
  private config: FeishuCallbackConfig | undefined;
  /** Answers lost so far (see `lostAnswers`). */
  private lost = 0;
  private readonly sent = new Map<string, { messageId: string; body: Json }>();

  constructor(
    private readonly ctx: FeishuContext,
    private readonly appId: () => string,
    private readonly longConnection: FeishuLongConnectionHub,
  ) {}

  configure(config: FeishuCallbackConfig | undefined): void {
    this.config = config;
    this.lost = 0;
  }

  async click(click: FeishuClick): Promise<FeishuCallbackResult> {
    const message = this.ctx.messages.require(click.messageId);
    const entity = message.cardId ? this.ctx.entities.get(message.cardId) : undefined;
    const found = findButton(click.shownCard ?? entity?.card ?? message.card, click.button);
    if (!found) return { cardUpdated: false, error: 'no-such-button' };
    const behaviour = (found.button.behaviors as Json[] | undefined)?.find((b) => b.type === 'callback');
    if (!behaviour) return { cardUpdated: false, error: 'not-a-callback-button' };
    if (!this.config) return { cardUpdated: false, error: 'callbacks-not-configured', clientError: CLIENT_ERROR };
    const eventId = randomHex(32);
    const formValue = found.form ? this.formValue(found.form, click.input) : undefined;
    const body: Json = {
      schema: '2.0',
      header: {
        event_id: eventId,
        token: ('verificationToken' in this.config ? this.config.verificationToken : undefined) ?? '',
        create_time: String(this.ctx.clock() * 1000),
        event_type: 'card.action.trigger',
        tenant_key: this.ctx.tenantKey,
        app_id: this.appId(),
      },
      event: {
        operator: { tenant_key: this.ctx.tenantKey, open_id: click.user, ...(click.name ? { name: click.name } : {}) },
        token: `c-${randomHex(16)}`,
        action: { value: behaviour.value, tag: 'button', ...(found.button.name ? { name: found.button.name } : {}), ...(formValue ? { form_value: formValue } : {}) },
        host: 'im_message',
        context: { open_message_id: message.messageId, open_chat_id: message.chatId },
      },
    };
    this.sent.set(eventId, { messageId: message.messageId, body });
    return this.deliver(eventId);
  }

  /** Delivers callback `eventId` again, unchanged (Feishu retries a callback whose answer failed). */
  async retry(eventId: string): Promise<FeishuCallbackResult> {
    if (!this.sent.has(eventId)) throw new Error(`retry: no callback with event_id ${JSON.stringify(eventId)} was delivered`);
    return this.deliver(eventId);
  }

  private formValue(form: Json, input: string | undefined): Json {
    const out: Json = {};
    const walk = (elements: unknown) => {
      for (const e of (Array.isArray(elements) ? elements : []) as Json[]) {
        if (e.tag === 'input' && typeof e.name === 'string') out[e.name] = input ?? '';
        walk(e.elements);
      }
    };
    walk(form.elements);
    return out;
  }

  private async deliver(eventId: string): Promise<FeishuCallbackResult> {
    const config = this.config;
    if (!config) return { eventId, cardUpdated: false, error: 'callbacks-not-configured', clientError: CLIENT_ERROR };
    const { messageId, body } = this.sent.get(eventId)!;
    const answered = 'url' in config ? await this.post(config, messageId, eventId, body) : await this.push(config, messageId, eventId, body);
    if ('error' in answered) return { eventId, ...answered, cardUpdated: false, clientError: CLIENT_ERROR };
    const { status, response, pushes } = answered;
    let card = (response?.card as Json | undefined)?.type === 'raw' ? ((response!.card as Json).data as Json) : undefined;
    const message = this.ctx.messages.get(messageId);
    const entity = message?.cardId ? this.ctx.entities.get(message.cardId) : undefined;
    // While a card entity is in streaming mode, "在用户交互卡片时，当服务端收到卡片的回调请求后，将无法立即更新卡片"
    // (https://open.larkoffice.com/document/uAjLw4CM/ukzMukzMukzM/feishu-cards/streaming-updates-openapi-overview):
    // the card in the callback response is not shown.
    const notShown = card !== undefined && entity?.streaming === true ? 'streaming' : undefined;
    if (notShown) card = undefined;
    if (card && entity && message?.state === 'live') {
      entity.card = card;
      entity.updatedAt = this.ctx.clock();
      entity.updates += 1;
      this.ctx.notify('updated', messageId);
    } else if (card && message && message.state === 'live') {
      message.content = JSON.stringify(card);
      message.card = card;
      message.updatedAt = this.ctx.clock();
      message.updates += 1;
      this.ctx.notify('updated', messageId);
    }
    this.record(messageId, eventId, status, response, card);
    return { eventId, status, response, cardUpdated: card !== undefined, ...(notShown && { cardNotShown: notShown }), ...(pushes ? { pushes } : {}) };
  }

  /** POSTs the callback to the request URL (encrypted and signed with an encrypt key). */
  private async post(config: FeishuHttpCallbackConfig, messageId: string, eventId: string, body: Json): Promise<Answered> {
    const plain = JSON.stringify(body);
    const raw = config.encryptKey ? JSON.stringify({ encrypt: encrypt(plain, config.encryptKey) }) : plain;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (config.encryptKey) {
      const timestamp = String(Math.floor(this.ctx.clock() / 1000));
      const nonce = randomHex(8);
      headers['x-lark-request-timestamp'] = timestamp;
      headers['x-lark-request-nonce'] = nonce;
      headers['x-lark-signature'] = createHash('sha256').update(timestamp + nonce + config.encryptKey + raw).digest('hex');
    }
    let status: number;
    let response: Json | undefined;
    try {
      const answer = await fetch(config.url, { method: 'POST', headers, body: raw, signal: AbortSignal.timeout(config.timeoutMs ?? 3000) });
      status = answer.status;
      response = (await answer.json().catch(() => undefined)) as Json | undefined;
    } catch {
      this.record(messageId, eventId, 0, undefined, undefined);
      return { error: 'timeout' };
    }
    if (status < 200 || status >= 300) {
      this.record(messageId, eventId, status, response, undefined);
      return { error: 'http-error', status, response };
    }
    return { status, response };
  }

  /** Pushes the callback over the long connection, again (same `event_id`) while nobody answers. */
  private async push(config: FeishuLongConnectionCallbackConfig, messageId: string, eventId: string, body: Json): Promise<Answered> {
    const attempts = 1 + (config.retries ?? 1);
    for (let push = 1; push <= attempts; push++) {
      const ack = await this.longConnection.push(this.appId(), body, config.timeoutMs ?? 3000, this.lost++ < (config.lostAnswers ?? 0));
      if (ack === 'not-connected') return { error: 'not-connected' };
      if (ack === 'timeout') {
        this.record(messageId, eventId, 0, undefined, undefined);
        continue;
      }
      // The SDK answers 200, or 500 when the handler threw.
      const status = ack.code;
      if (status < 200 || status >= 300) {
        this.record(messageId, eventId, status, ack.response, undefined);
        return { error: 'http-error', status, response: ack.response, pushes: push };
      }
      return { status, response: ack.response, pushes: push };
    }
    return { error: 'timeout', pushes: attempts };
  }

  private record(messageId: string, eventId: string, status: number, response: Json | undefined, card: Json | undefined): void {
    this.ctx.history.record({
      route: CARD_CALLBACK_ROUTE,
      key: messageId,
      outcome: status >= 200 && status < 300 ? 'accepted' : 'rejected',
      status,
      code: 0,
      msg: `event_id ${eventId}${response?.toast ? ` toast ${JSON.stringify(response.toast)}` : ''}`,
      card,
    });
  }
}
