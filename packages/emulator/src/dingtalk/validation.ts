import { DingTalkApiFailure, failures } from './errors.js';
import { checkDeliverModels, parseOpenSpaceId, type DingTalkSpace } from './open-space.js';
import type { StreamingFrame } from './card-store.js';

/**
 * Request-body rules of the card routes, with the documented error codes
 * (open.dingtalk.com/document/development/create-and-deliver-cards, …/interactive-card-update-interface,
 * …/api-streamingupdate). Each parser throws a {@link DingTalkApiFailure}.
 */

type Body = Record<string, unknown>;

function isObject(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** `outTrackId` is at most 100 characters (legacy card docs: "≤100, ≤64 recommended"). */
const MAX_OUT_TRACK_ID_LENGTH = 100;

function outTrackIdOf(body: Body): string {
  const id = body.outTrackId;
  if (isBlank(id)) throw failures.param('param.outTrackIdEmpty');
  if (typeof id !== 'string' || id.length > MAX_OUT_TRACK_ID_LENGTH) {
    throw new DingTalkApiFailure(400, 'param.invalid', `param.invalid: outTrackId must be a string of at most ${MAX_OUT_TRACK_ID_LENGTH} characters`);
  }
  return id;
}

/**
 * A `cardParamMap`: every value must be a string ("All cardParamMap values must be strings",
 * instructions-for-filling-in-api-card-data).
 * @throws 400 `param.invalid` naming the first non-string key.
 */
function parseParamMap(value: unknown, field: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new DingTalkApiFailure(400, 'param.invalid', `param.invalid: ${field} must be an object of strings`);
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') {
      throw new DingTalkApiFailure(400, 'param.invalid', `param.invalid: ${field}.${key} must be a string, got ${v === null ? 'null' : typeof v}`);
    }
  }
  return { ...(value as Record<string, string>) };
}

function cardDataOf(body: Body, field: 'cardData'): Record<string, string> | undefined {
  const data = body[field];
  if (data === undefined || data === null) return undefined;
  if (!isObject(data)) throw new DingTalkApiFailure(400, 'param.invalid', `param.invalid: ${field} must be an object`);
  return parseParamMap(data.cardParamMap, `${field}.cardParamMap`);
}

function privateDataOf(body: Body): Record<string, Record<string, string>> | undefined {
  const data = body.privateData;
  if (data === undefined || data === null) return undefined;
  if (!isObject(data)) throw new DingTalkApiFailure(400, 'param.invalid', 'param.invalid: privateData must be an object');
  const out: Record<string, Record<string, string>> = {};
  for (const [user, entry] of Object.entries(data)) {
    if (!isObject(entry)) throw new DingTalkApiFailure(400, 'param.invalid', `param.invalid: privateData.${user} must be an object`);
    out[user] = parseParamMap(entry.cardParamMap, `privateData.${user}.cardParamMap`);
  }
  return out;
}

/** A valid `POST /v1.0/card/instances` body (also the create half of createAndDeliver). */
export interface CreateCardRequest {
  readonly outTrackId: string;
  readonly cardTemplateId: string;
  readonly cardData: Record<string, string>;
  readonly privateData?: Record<string, Record<string, string>>;
  /** How the card's buttons call back: `callbackType` (`STREAM` | `HTTP`) and, for HTTP, `callbackRouteKey`. */
  readonly callback?: { readonly type: string; readonly routeKey?: string };
}

/**
 * @param knownTemplates when given, other template ids answer 400 `param.templateNotExist`.
 * @throws 400 `param.empty`, `param.cardTemplateIdEmpty`, `param.outTrackIdEmpty`, `param.cardPublicDataEmpty`,
 *   `param.templateNotExist`, `param.invalid`.
 */
export function parseCreate(body: unknown, knownTemplates?: ReadonlySet<string>): CreateCardRequest {
  if (!isObject(body)) throw failures.param('param.empty');
  if (isBlank(body.cardTemplateId) || typeof body.cardTemplateId !== 'string') throw failures.param('param.cardTemplateIdEmpty');
  const outTrackId = outTrackIdOf(body);
  const cardData = cardDataOf(body, 'cardData');
  if (cardData === undefined) throw failures.param('param.cardPublicDataEmpty');
  if (knownTemplates && !knownTemplates.has(body.cardTemplateId)) throw failures.param('param.templateNotExist');
  const callback = typeof body.callbackType === 'string' ? { type: body.callbackType, ...(typeof body.callbackRouteKey === 'string' ? { routeKey: body.callbackRouteKey } : {}) } : undefined;
  return { outTrackId, cardTemplateId: body.cardTemplateId, cardData, privateData: privateDataOf(body), ...(callback ? { callback } : {}) };
}

/** A valid delivery: the `openSpaceId`, its spaces, and their deliver models checked. */
export interface DeliverRequest {
  readonly outTrackId: string;
  readonly openSpaceId: string;
  readonly spaces: readonly DingTalkSpace[];
}

/**
 * The delivery half of createAndDeliver, or a `POST /v1.0/card/instances/deliver` body.
 * @throws 400 `param.outTrackIdEmpty`, `param.openSpaceIdEmpty`, `param.openSpaceIdInvalid`,
 *   `param.openDeliverModelEmpty`, `param.openDeliverModelError`.
 */
export function parseDeliver(body: unknown): DeliverRequest {
  if (!isObject(body)) throw failures.param('param.empty');
  const outTrackId = outTrackIdOf(body);
  const spaces = parseOpenSpaceId(body.openSpaceId);
  checkDeliverModels(spaces, body);
  return { outTrackId, openSpaceId: body.openSpaceId as string, spaces };
}

/** A valid `PUT /v1.0/card/instances` body. */
export interface UpdateCardRequest {
  readonly outTrackId: string;
  readonly cardData?: Record<string, string>;
  readonly privateData?: Record<string, Record<string, string>>;
  /** `cardUpdateOptions.updateCardDataByKey`; false (the default) replaces the whole cardData. */
  readonly cardDataByKey: boolean;
  readonly privateDataByKey: boolean;
}

/** @throws 400 `param.outTrackIdEmpty`, `param.cardDataAndPrivateDataBothEmpty`, `param.invalid`. */
export function parseUpdate(body: unknown): UpdateCardRequest {
  if (!isObject(body)) throw failures.param('param.empty');
  const outTrackId = outTrackIdOf(body);
  const cardData = cardDataOf(body, 'cardData');
  const privateData = privateDataOf(body);
  if (cardData === undefined && privateData === undefined) throw failures.param('param.cardDataAndPrivateDataBothEmpty');
  const options = isObject(body.cardUpdateOptions) ? body.cardUpdateOptions : {};
  return {
    outTrackId,
    cardData,
    privateData,
    cardDataByKey: options.updateCardDataByKey === true,
    privateDataByKey: options.updatePrivateDataByKey === true,
  };
}

/** A valid `PUT /v1.0/card/streaming` body. */
export interface StreamingRequest extends StreamingFrame {
  readonly outTrackId: string;
}

/**
 * Empty `content` is accepted together with `isFinalize: true` (how clients close a stream; whether
 * DingTalk refuses it is UNCONFIRMED).
 * @param maxContentChars when given, longer content answers 400 `param.stream.content`.
 * @throws 400 `param.stream.outTrackId` (missing id), `param.stream.guidEmpty`, `param.stream.keyEmpty`,
 *   `param.stream.contentEmpty`, `param.stream.content`.
 */
export function parseStreaming(body: unknown, maxContentChars?: number): StreamingRequest {
  if (!isObject(body)) throw failures.param('param.empty');
  if (isBlank(body.outTrackId) || typeof body.outTrackId !== 'string') throw failures.streamCardNotExist();
  if (isBlank(body.guid) || typeof body.guid !== 'string') throw failures.param('param.stream.guidEmpty');
  if (isBlank(body.key) || typeof body.key !== 'string') throw failures.param('param.stream.keyEmpty');
  const isFinalize = body.isFinalize === true;
  const content = body.content;
  if (typeof content !== 'string' || (content === '' && !isFinalize)) throw failures.param('param.stream.contentEmpty');
  if (maxContentChars !== undefined && content.length > maxContentChars) throw failures.streamContentTooLarge();
  return {
    outTrackId: body.outTrackId,
    guid: body.guid,
    key: body.key,
    content,
    isFull: body.isFull === true,
    isFinalize,
    isError: body.isError === true,
  };
}
