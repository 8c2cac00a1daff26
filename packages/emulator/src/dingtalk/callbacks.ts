import { createHmac, randomUUID } from 'node:crypto';
import type { DingTalkCardStore } from './card-store.js';
import type { DingTalkCallbackRoute } from './handlers.js';
import { CARD_CALLBACK_TOPIC, type DingTalkStreamHub } from './stream.js';

/** A click a test makes on a card button, as a DingTalk user would. */
export interface DingTalkClick {
  readonly outTrackId: string;
  /** The clicking user's userId. */
  readonly user: string;
  /** The button: its `id` or its text. */
  readonly button: string;
  /** Text typed into the card's input (for the input's send button). */
  readonly input?: string;
  /** The card variable holding the controls (default `pcControls`, progresscard's template convention). */
  readonly controlsKey?: string;
  /** The controls the user's client shows, when it is not the current card (a stale client). */
  readonly shownControls?: string;
}

/**
 * What came of a callback. `error`: `callbacks-not-configured` (no Stream-mode client subscribed
 * to the card callback topic, or, for a card created with `callbackType: 'HTTP'`, no URL
 * registered for its `callbackRouteKey`: nothing is sent), `no-such-button`, `timeout` (no answer
 * in time, after the retries for HTTP), `http-error` (the app answered a non-2xx status to every attempt).
 */
export interface DingTalkCallbackResult {
  /** The Stream frame's `messageId`; for an HTTP callback, the emulator's id of the delivery (for `retry`). */
  readonly messageId?: string;
  /** HTTP callbacks: attempts made (1 + retries). */
  readonly attempts?: number;
  /** HTTP callbacks: the status of the last attempt. */
  readonly status?: number;
  /** The `response` of the client's answer (`socketCallBackResponse`). */
  readonly response?: Record<string, unknown>;
  /** True when the response updated the card's data. */
  readonly cardUpdated: boolean;
  readonly error?: 'callbacks-not-configured' | 'no-such-button' | 'timeout' | 'http-error';
}

/** Retries of an HTTP card callback that failed (timeout or non-2xx); DingTalk's own policy is not documented. */
const HTTP_CALLBACK_RETRIES = 2;

/**
 * Headers of a signed HTTP callback: `timestamp` (epoch ms) and `sign` = base64(HMAC-SHA256(key
 * `apiSecret`, `timestamp + "\n" + apiSecret`)). This is DingTalk's documented scheme for robot
 * HTTP callbacks (https://open.dingtalk.com/document/orgapp/receive-message); that card callbacks
 * registered with an `apiSecret` are signed the same way is UNCONFIRMED.
 */
export function dingTalkCallbackSignature(timestamp: string, apiSecret: string): string {
  return createHmac('sha256', apiSecret).update(`${timestamp}\n${apiSecret}`).digest('base64');
}

interface ControlButton {
  readonly id: string;
  readonly text: string;
  readonly params?: Record<string, unknown>;
}

/**
 * Card callbacks of the DingTalk emulator: a click becomes the `actionCallback` message
 * (`outTrackId`, `userId`, `content` = `{"cardPrivateData":{"actionIds":[…],"params":{…}}}`, as the
 * dingtalk-stream SDKs parse it) pushed over Stream mode on topic `/v1.0/card/instances/callback`;
 * the answer's `cardData.cardParamMap` (with `cardUpdateOptions.updateCardDataByKey`) updates the card.
 */
export class DingTalkCallbacks {
  private readonly sent = new Map<string, { outTrackId: string; data: Record<string, unknown> }>();

  constructor(
    private readonly store: DingTalkCardStore,
    private readonly stream: DingTalkStreamHub,
    private readonly clock: () => number,
    private readonly corpId: string,
    private readonly timeoutMs: number,
    private readonly routes: ReadonlyMap<string, DingTalkCallbackRoute>,
  ) {}

  async click(click: DingTalkClick): Promise<DingTalkCallbackResult> {
    const card = this.store.get(click.outTrackId);
    if (!card) throw new Error(`click: unknown outTrackId ${JSON.stringify(click.outTrackId)}`);
    const raw = click.shownControls ?? card.cardData[click.controlsKey ?? 'pcControls'] ?? '';
    let controls: { buttons?: ControlButton[]; input?: ControlButton };
    try {
      controls = JSON.parse(raw || '{}') as typeof controls;
    } catch {
      controls = {};
    }
    const all = [...(controls.buttons ?? []), ...(controls.input ? [controls.input] : [])];
    const button = all.find((b) => b.id === click.button || b.text === click.button);
    if (!button) return { cardUpdated: false, error: 'no-such-button' };
    const http = card.callback?.type === 'HTTP';
    if (http ? !this.routes.has(card.callback?.routeKey ?? '') : !this.stream.subscribed(CARD_CALLBACK_TOPIC)) return { cardUpdated: false, error: 'callbacks-not-configured' };
    const params = { ...button.params, ...(button === controls.input ? { answer: click.input ?? '' } : {}) };
    const content = JSON.stringify({ cardPrivateData: { actionIds: [button.id], params } });
    const data = { extension: '{}', corpId: this.corpId, spaceType: 'IM_GROUP', userIdType: 1, type: 'actionCallback', userId: click.user, content, spaceId: '', outTrackId: card.outTrackId, value: content };
    const messageId = randomUUID();
    this.sent.set(messageId, { outTrackId: card.outTrackId, data });
    return this.deliver(messageId);
  }

  /** Pushes callback `messageId` again, unchanged (the platform re-pushes an unanswered message). */
  async retry(messageId: string): Promise<DingTalkCallbackResult> {
    if (!this.sent.has(messageId)) throw new Error(`retry: no callback with messageId ${JSON.stringify(messageId)} was pushed`);
    return this.deliver(messageId);
  }

  private async deliver(messageId: string): Promise<DingTalkCallbackResult> {
    const { outTrackId, data } = this.sent.get(messageId)!;
    const route = this.store.get(outTrackId)?.callback;
    if (route?.type === 'HTTP') return this.post(messageId, outTrackId, data, route.routeKey ?? '');
    const ack = await this.stream.push(CARD_CALLBACK_TOPIC, messageId, data, this.timeoutMs);
    if (ack === 'not-subscribed') return { messageId, cardUpdated: false, error: 'callbacks-not-configured' };
    if (ack === 'timeout') return { messageId, cardUpdated: false, error: 'timeout' };
    return this.apply(messageId, outTrackId, (ack?.response ?? undefined) as Record<string, unknown> | undefined);
  }

  /**
   * POSTs an HTTP card callback (`{ type: 'actionCallback', outTrackId, corpId, userId, content }`)
   * to the URL registered for `routeKey`, signed when it has an `apiSecret`, and tries again (the
   * same body) while it times out or answers a non-2xx status. The answer's body has the shape of
   * the Stream answer (`cardData`, `cardUpdateOptions`, `userPrivateData`); UNCONFIRMED for HTTP.
   */
  private async post(messageId: string, outTrackId: string, data: Record<string, unknown>, routeKey: string): Promise<DingTalkCallbackResult> {
    const route = this.routes.get(routeKey);
    if (!route) return { messageId, cardUpdated: false, error: 'callbacks-not-configured' };
    const { type, outTrackId: track, corpId, userId, content } = data;
    const body = JSON.stringify({ type, outTrackId: track, corpId, userId, content });
    let status: number | undefined;
    for (let attempt = 1; attempt <= 1 + HTTP_CALLBACK_RETRIES; attempt++) {
      const timestamp = String(this.clock());
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (route.apiSecret) Object.assign(headers, { timestamp, sign: dingTalkCallbackSignature(timestamp, route.apiSecret) });
      try {
        const answer = await fetch(route.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
        status = answer.status;
        const response = (await answer.json().catch(() => undefined)) as Record<string, unknown> | undefined;
        if (status >= 200 && status < 300) return { ...(await this.apply(messageId, outTrackId, response)), attempts: attempt, status };
      } catch {
        status = undefined;
      }
    }
    const attempts = 1 + HTTP_CALLBACK_RETRIES;
    return status === undefined ? { messageId, cardUpdated: false, error: 'timeout', attempts } : { messageId, cardUpdated: false, error: 'http-error', attempts, status };
  }

  /** Applies a callback answer's card variables to the card. */
  private async apply(messageId: string, outTrackId: string, response: Record<string, unknown> | undefined): Promise<DingTalkCallbackResult> {
    const cardParamMap = (response?.cardData as { cardParamMap?: Record<string, unknown> } | undefined)?.cardParamMap;
    if (!cardParamMap || !this.store.get(outTrackId)) return { messageId, response, cardUpdated: false };
    const byKey = (response?.cardUpdateOptions as { updateCardDataByKey?: boolean } | undefined)?.updateCardDataByKey === true;
    const strings = Object.fromEntries(Object.entries(cardParamMap).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    this.store.update(outTrackId, { cardData: strings, cardDataByKey: byKey, privateDataByKey: false }, this.clock());
    return { messageId, response, cardUpdated: true };
  }
}
