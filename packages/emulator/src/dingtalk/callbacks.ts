import { randomUUID } from 'node:crypto';
import type { DingTalkCardStore } from './card-store.js';
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
 * to the card callback topic: nothing is sent), `no-such-button`, `timeout` (no answer in time).
 */
export interface DingTalkCallbackResult {
  readonly messageId?: string;
  /** The `response` of the client's answer (`socketCallBackResponse`). */
  readonly response?: Record<string, unknown>;
  /** True when the response updated the card's data. */
  readonly cardUpdated: boolean;
  readonly error?: 'callbacks-not-configured' | 'no-such-button' | 'timeout';
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
    if (!this.stream.subscribed(CARD_CALLBACK_TOPIC)) return { cardUpdated: false, error: 'callbacks-not-configured' };
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
    const ack = await this.stream.push(CARD_CALLBACK_TOPIC, messageId, data, this.timeoutMs);
    if (ack === 'not-subscribed') return { messageId, cardUpdated: false, error: 'callbacks-not-configured' };
    if (ack === 'timeout') return { messageId, cardUpdated: false, error: 'timeout' };
    const response = (ack?.response ?? undefined) as Record<string, unknown> | undefined;
    const cardParamMap = (response?.cardData as { cardParamMap?: Record<string, unknown> } | undefined)?.cardParamMap;
    if (!cardParamMap || !this.store.get(outTrackId)) return { messageId, response, cardUpdated: false };
    const byKey = (response?.cardUpdateOptions as { updateCardDataByKey?: boolean } | undefined)?.updateCardDataByKey === true;
    const strings = Object.fromEntries(Object.entries(cardParamMap).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    this.store.update(outTrackId, { cardData: strings, cardDataByKey: byKey, privateDataByKey: false }, this.clock());
    return { messageId, response, cardUpdated: true };
  }
}
