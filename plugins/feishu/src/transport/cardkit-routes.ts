import { route, type FeishuAnswer } from './routes.js';

/** Arguments of {@link FEISHU_CARDKIT_ROUTES}`.createCard`: the Card JSON 2.0 card, stringified. */
export interface CreateCardRequest {
  readonly cardJson: string;
}

/** What every operation on an entity carries: `sequence` strictly increasing per entity (int32), `uuid` 1–64 chars. */
export interface CardOperation {
  readonly cardId: string;
  readonly sequence: number;
  readonly uuid: string;
}

/** Arguments of {@link FEISHU_CARDKIT_ROUTES}`.updateCard`. */
export interface UpdateCardRequest extends CardOperation {
  readonly cardJson: string;
}

/** Arguments of {@link FEISHU_CARDKIT_ROUTES}`.cardSettings`: `settings` is `{"config":{…}}`, stringified (1–100 000 chars). */
export interface CardSettingsRequest extends CardOperation {
  readonly settings: string;
}

/** Arguments of {@link FEISHU_CARDKIT_ROUTES}`.elementContent`: the element's full text. */
export interface ElementContentRequest extends CardOperation {
  readonly elementId: string;
  readonly content: string;
}

/**
 * The CardKit v1 routes of `mode: 'cardkit'`, each 50 calls/s and 1000/min per app; one entity takes
 * at most 10 operations/s through all of them
 * (https://open.larkoffice.com/document/uAjLw4CM/ukzMukzMukzM/feishu-cards/streaming-updates-openapi-overview).
 * An entity is valid 14 days and can be sent once (card create doc).
 */
export const FEISHU_CARDKIT_ROUTES = {
  /** Create a card entity from Card JSON 2.0 (`update_multi` must not be false). Answers `data.card_id`. */
  createCard: route<CreateCardRequest>({
    method: 'POST',
    path: '/open-apis/cardkit/v1/cards',
    sdkMethod: 'cardkit.v1.card.create',
    doc: 'https://open.larksuite.com/document/uAjLw4CM/ukTMukTMukTM/cardkit-v1/card/create',
    call: (client, r) => client.cardkit.v1.card.create({ data: { type: 'card_json', data: r.cardJson } }) as Promise<FeishuAnswer>,
  }),
  /** Replace the whole card of an entity. */
  updateCard: route<UpdateCardRequest>({
    method: 'PUT',
    path: '/open-apis/cardkit/v1/cards/:card_id',
    sdkMethod: 'cardkit.v1.card.update',
    doc: 'https://open.larksuite.com/document/uAjLw4CM/ukTMukTMukTM/cardkit-v1/card/update',
    call: (client, r) =>
      client.cardkit.v1.card.update({
        path: { card_id: r.cardId },
        data: { card: { type: 'card_json', data: r.cardJson }, sequence: r.sequence, uuid: r.uuid },
      }) as Promise<FeishuAnswer>,
  }),
  /** Change the card's `config` (here: open or close streaming mode). */
  cardSettings: route<CardSettingsRequest>({
    method: 'PATCH',
    path: '/open-apis/cardkit/v1/cards/:card_id/settings',
    sdkMethod: 'cardkit.v1.card.settings',
    doc: 'https://open.larksuite.com/document/uAjLw4CM/ukTMukTMukTM/cardkit-v1/card/settings',
    call: (client, r) =>
      client.cardkit.v1.card.settings({
        path: { card_id: r.cardId },
        data: { settings: r.settings, sequence: r.sequence, uuid: r.uuid },
      }) as Promise<FeishuAnswer>,
  }),
  /**
   * Stream a markdown element's full text: when the old text is a prefix of the new one the client
   * types the rest out, otherwise it shows the new text at once. Needs streaming mode on.
   */
  elementContent: route<ElementContentRequest>({
    method: 'PUT',
    path: '/open-apis/cardkit/v1/cards/:card_id/elements/:element_id/content',
    sdkMethod: 'cardkit.v1.cardElement.content',
    doc: 'https://open.larkoffice.com/document/cardkit-v1/card-element/content',
    call: (client, r) =>
      client.cardkit.v1.cardElement.content({
        path: { card_id: r.cardId, element_id: r.elementId },
        data: { content: r.content, sequence: r.sequence, uuid: r.uuid },
      }) as Promise<FeishuAnswer>,
  }),
} as const;
