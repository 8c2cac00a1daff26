import { failures } from './errors.js';
import type { DingTalkSpace, DingTalkSpaceType } from './open-space.js';

/**
 * The emulator's cards: one record per `outTrackId`, with its data, its spaces and its AI-card state.
 *
 * AI-card states (open.dingtalk.com/document/development/ai-card-template) and the `flowStatus`
 * values that set them (dingtalk-stream-sdk-python `AICardStatus`):
 *
 * | flowStatus | state      |
 * |------------|------------|
 * | "1"        | processing |
 * | "2"        | inputting  |
 * | "3"        | finished   |
 * | "4"        | executing  |
 * | "5"        | failed     |
 *
 * Streaming moves the state too, see {@link STREAM_TRANSITIONS}.
 */
export type DingTalkCardState = 'processing' | 'inputting' | 'executing' | 'finished' | 'failed';

/** States in which the card shows no spinner / typing animation. */
export const TERMINAL_CARD_STATES: ReadonlySet<DingTalkCardState> = new Set(['finished', 'failed']);

/** `flowStatus` card variable value → state. */
export const FLOW_STATUS_STATES: Readonly<Record<string, DingTalkCardState>> = {
  '1': 'processing',
  '2': 'inputting',
  '3': 'finished',
  '4': 'executing',
  '5': 'failed',
};

/** What a streaming frame does to the state: any frame starts typing, `isFinalize` / `isError` end it. */
const STREAM_TRANSITIONS: Readonly<Record<DingTalkCardState, { frame: DingTalkCardState; finalize: DingTalkCardState; error: DingTalkCardState }>> = {
  processing: { frame: 'inputting', finalize: 'finished', error: 'failed' },
  inputting: { frame: 'inputting', finalize: 'finished', error: 'failed' },
  executing: { frame: 'inputting', finalize: 'finished', error: 'failed' },
  // Whether DingTalk applies frames after the end is UNCONFIRMED; the emulator keeps the end state.
  finished: { frame: 'finished', finalize: 'finished', error: 'failed' },
  failed: { frame: 'failed', finalize: 'finished', error: 'failed' },
};

/** Delivery of a card to one space. `pending`: created with `POST /v1.0/card/instances`, not delivered yet. */
export type DingTalkDeliveryState = 'pending' | 'delivered' | 'failed';

/** One space of a card and how its delivery went. */
export interface DingTalkCardSpace {
  readonly spaceType: DingTalkSpaceType;
  readonly spaceId: string;
  readonly delivery: DingTalkDeliveryState;
  /** The IM `processQueryKey` of the delivered message. */
  readonly carrierId?: string;
  /** `errorMsg` reported for a failed delivery. */
  readonly errorMsg?: string;
}

/** One card as the store holds it (a copy; mutating it changes nothing). */
export interface DingTalkCardInstance {
  readonly outTrackId: string;
  readonly cardTemplateId: string;
  /** The `openSpaceId` of the last delivery, if any. */
  readonly openSpaceId?: string;
  readonly spaces: readonly DingTalkCardSpace[];
  /** Current public data (`cardData.cardParamMap`); every value a string. */
  readonly cardData: Readonly<Record<string, string>>;
  /** Current private data per user id. */
  readonly privateData: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** The variables written through the streaming API, with their current values. */
  readonly streamed: Readonly<Record<string, string>>;
  readonly state: DingTalkCardState;
  /** Number of accepted changes (create = 1). */
  readonly version: number;
  /** Epoch ms (emulator clock). */
  readonly createdAt: number;
  readonly updatedAt: number;
  /** `callbackType` (`STREAM` | `HTTP`) and `callbackRouteKey` the card was created with. */
  readonly callback?: { readonly type: string; readonly routeKey?: string };
}

/** One streaming frame (`PUT /v1.0/card/streaming`). */
export interface StreamingFrame {
  readonly guid: string;
  readonly key: string;
  readonly content: string;
  readonly isFull: boolean;
  readonly isFinalize: boolean;
  readonly isError: boolean;
}

interface CardRecord {
  outTrackId: string;
  cardTemplateId: string;
  openSpaceId?: string;
  spaces: DingTalkCardSpace[];
  cardData: Record<string, string>;
  privateData: Record<string, Record<string, string>>;
  streamed: Record<string, string>;
  state: DingTalkCardState;
  version: number;
  createdAt: number;
  updatedAt: number;
  callback?: { readonly type: string; readonly routeKey?: string };
  guids: Set<string>;
}

function snapshot(card: CardRecord): DingTalkCardInstance {
  return {
    outTrackId: card.outTrackId,
    cardTemplateId: card.cardTemplateId,
    openSpaceId: card.openSpaceId,
    spaces: card.spaces.map((s) => ({ ...s })),
    cardData: { ...card.cardData },
    privateData: Object.fromEntries(Object.entries(card.privateData).map(([u, d]) => [u, { ...d }])),
    streamed: { ...card.streamed },
    state: card.state,
    version: card.version,
    createdAt: card.createdAt,
    updatedAt: card.updatedAt,
    ...(card.callback ? { callback: { ...card.callback } } : {}),
  };
}

function stateFromData(data: Readonly<Record<string, string>>, fallback: DingTalkCardState): DingTalkCardState {
  const flow = data.flowStatus;
  return flow !== undefined && FLOW_STATUS_STATES[flow] ? FLOW_STATUS_STATES[flow] : fallback;
}

/** Cards by `outTrackId`. All methods throw {@link DingTalkApiFailure}s with the documented codes. */
export class DingTalkCardStore {
  private readonly cards = new Map<string, CardRecord>();

  /**
   * Creates a card in state processing (or the state its `flowStatus` names).
   * @throws 400 `param.cardAlreadyExist` when the outTrackId is taken (DingTalk's behaviour on reuse is
   *   UNCONFIRMED; the emulator refuses, so clients must not rely on a silent overwrite).
   */
  create(input: {
    outTrackId: string;
    cardTemplateId: string;
    cardData: Record<string, string>;
    privateData?: Record<string, Record<string, string>>;
    callback?: { readonly type: string; readonly routeKey?: string };
    at: number;
  }): DingTalkCardInstance {
    if (this.cards.has(input.outTrackId)) throw failures.param('param.cardAlreadyExist');
    const card: CardRecord = {
      outTrackId: input.outTrackId,
      cardTemplateId: input.cardTemplateId,
      spaces: [],
      cardData: { ...input.cardData },
      privateData: { ...(input.privateData ?? {}) },
      streamed: {},
      state: stateFromData(input.cardData, 'processing'),
      version: 1,
      createdAt: input.at,
      updatedAt: input.at,
      guids: new Set(),
      ...(input.callback ? { callback: input.callback } : {}),
    };
    this.cards.set(card.outTrackId, card);
    return snapshot(card);
  }

  /**
   * Records a delivery to `spaces`; `failedSpaces` maps a space index to its `errorMsg`.
   * A space already on the card is updated in place (a redelivery), not duplicated.
   * @throws 400 `param.cardNotExist` for an unknown card.
   */
  deliver(outTrackId: string, openSpaceId: string, spaces: readonly DingTalkSpace[], failed: ReadonlyMap<number, string>, carrierId: () => string, at: number): DingTalkCardSpace[] {
    const card = this.require(outTrackId, 'param.cardNotExist');
    card.openSpaceId = openSpaceId;
    const results = spaces.map((space, index): DingTalkCardSpace => {
      const errorMsg = failed.get(index);
      return errorMsg === undefined
        ? { ...space, delivery: 'delivered', carrierId: carrierId() }
        : { ...space, delivery: 'failed', errorMsg };
    });
    for (const result of results) {
      const at_ = card.spaces.findIndex((s) => s.spaceType === result.spaceType && s.spaceId === result.spaceId);
      // A space delivered once stays delivered: a later failed redelivery does not remove the message.
      if (at_ === -1) card.spaces.push(result);
      else if (card.spaces[at_]!.delivery !== 'delivered') card.spaces[at_] = result;
    }
    card.updatedAt = at;
    return results;
  }

  /**
   * `PUT /v1.0/card/instances`: merges by key when `byKey` (per `cardUpdateOptions.updateCardDataByKey`),
   * otherwise replaces the whole map (the documented default). Same for private data.
   * @throws 400 `param.cardNotExist` for an unknown card.
   */
  update(
    outTrackId: string,
    change: { cardData?: Record<string, string>; privateData?: Record<string, Record<string, string>>; cardDataByKey: boolean; privateDataByKey: boolean },
    at: number,
  ): DingTalkCardInstance {
    const card = this.require(outTrackId, 'param.cardNotExist');
    if (change.cardData) {
      card.cardData = change.cardDataByKey ? { ...card.cardData, ...change.cardData } : { ...change.cardData };
      if (change.cardData.flowStatus !== undefined) card.state = stateFromData(card.cardData, card.state);
    }
    if (change.privateData) {
      for (const [user, data] of Object.entries(change.privateData)) {
        card.privateData[user] = change.privateDataByKey ? { ...(card.privateData[user] ?? {}), ...data } : { ...data };
      }
    }
    card.version += 1;
    card.updatedAt = at;
    return snapshot(card);
  }

  /**
   * `PUT /v1.0/card/streaming`: appends to (or with `isFull` replaces) card variable `key` and moves the
   * state per {@link STREAM_TRANSITIONS}. A frame whose `guid` was seen before is not applied again.
   * @returns whether the frame was applied or recognised as a duplicate.
   * @throws 400 `param.stream.outTrackId` for an unknown card.
   */
  stream(outTrackId: string, frame: StreamingFrame, at: number): { applied: boolean; card: DingTalkCardInstance } {
    const card = this.cards.get(outTrackId);
    if (!card) throw failures.streamCardNotExist();
    if (card.guids.has(frame.guid)) return { applied: false, card: snapshot(card) };
    card.guids.add(frame.guid);
    card.cardData[frame.key] = frame.isFull ? frame.content : (card.streamed[frame.key] ?? '') + frame.content;
    card.streamed[frame.key] = card.cardData[frame.key]!;
    const moves = STREAM_TRANSITIONS[card.state];
    card.state = frame.isError ? moves.error : frame.isFinalize ? moves.finalize : moves.frame;
    card.version += 1;
    card.updatedAt = at;
    return { applied: true, card: snapshot(card) };
  }

  /** The card, or undefined. */
  get(outTrackId: string): DingTalkCardInstance | undefined {
    const card = this.cards.get(outTrackId);
    return card && snapshot(card);
  }

  has(outTrackId: string): boolean {
    return this.cards.has(outTrackId);
  }

  /** Every card in creation order. */
  list(): DingTalkCardInstance[] {
    return [...this.cards.values()].map(snapshot);
  }

  /** Forgets every card. */
  clear(): void {
    this.cards.clear();
  }

  private require(outTrackId: string, code: string): CardRecord {
    const card = this.cards.get(outTrackId);
    if (!card) throw failures.param(code);
    return card;
  }
}
