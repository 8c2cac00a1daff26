import type { Clock, FaultInjector } from '../common/index.js';
import { randomHex } from '../common/index.js';
import type { DingTalkCardInstance, DingTalkCardSpace, DingTalkCardStore } from './card-store.js';
import { DingTalkApiFailure, failures } from './errors.js';
import type { DingTalkTokenRegistry } from './tokens.js';
import { acceptRobotMessage, type DingTalkRobotMessage } from './robot-messages.js';
import type { DingTalkMediaStore } from './media.js';
import { parseCreate, parseDeliver, parseStreaming, parseUpdate } from './validation.js';

/**
 * The DingTalk routes the emulator serves, by name (names are what fault rules and the call history use).
 * Paths per https://open.dingtalk.com/document/development/overview-card and, for the token,
 * https://open.dingtalk.com/document/development/obtain-the-access-token-of-an-internal-app.
 */
export const DINGTALK_ROUTES = {
  'oauth2.accessToken': { method: 'POST', path: '/v1.0/oauth2/accessToken' },
  'card.createAndDeliver': { method: 'POST', path: '/v1.0/card/instances/createAndDeliver' },
  'card.create': { method: 'POST', path: '/v1.0/card/instances' },
  'card.deliver': { method: 'POST', path: '/v1.0/card/instances/deliver' },
  'card.update': { method: 'PUT', path: '/v1.0/card/instances' },
  'card.streaming': { method: 'PUT', path: '/v1.0/card/streaming' },
  'card.callbacks.register': { method: 'POST', path: '/v1.0/card/callbacks/register' },
  'robot.groupMessages.send': { method: 'POST', path: '/v1.0/robot/groupMessages/send' },
  'robot.oToMessages.batchSend': { method: 'POST', path: '/v1.0/robot/oToMessages/batchSend' },
} as const;

/**
 * The permission scope each route needs (https://open.dingtalk.com/document/orgapp-server/add-api-permission;
 * card routes `Card.Instance.Write`, streaming `Card.Streaming.Write`, robot messages `qyapi_robot_sendmsg`).
 */
export const DINGTALK_ROUTE_SCOPES: Readonly<Partial<Record<keyof typeof DINGTALK_ROUTES, string>>> = {
  'card.createAndDeliver': 'Card.Instance.Write',
  'card.create': 'Card.Instance.Write',
  'card.deliver': 'Card.Instance.Write',
  'card.update': 'Card.Instance.Write',
  'card.streaming': 'Card.Streaming.Write',
  'robot.groupMessages.send': 'qyapi_robot_sendmsg',
  'robot.oToMessages.batchSend': 'qyapi_robot_sendmsg',
};

/** A route name, e.g. `card.update` for `PUT /v1.0/card/instances`. */
export type DingTalkRoute = keyof typeof DINGTALK_ROUTES;

/** Every route name. */
export const DINGTALK_ROUTE_NAMES = Object.keys(DINGTALK_ROUTES) as DingTalkRoute[];

/** Pseudo route of the delivery fault injector (one "call" per delivery attempt). */
export const DELIVERY_ROUTE = 'card.delivery';

/** What changed on a card, for change listeners. */
export type DingTalkChangeKind = 'created' | 'delivered' | 'updated' | 'streamed';

/** What the route logic needs. */
export interface HandlerContext {
  readonly store: DingTalkCardStore;
  readonly tokens: DingTalkTokenRegistry;
  readonly clock: Clock;
  /** Decides which deliveries fail with `success: false` (see `failDelivery`). */
  readonly deliveryFaults: FaultInjector;
  readonly knownTemplates?: ReadonlySet<string>;
  readonly streamingKeys?: ReadonlySet<string>;
  readonly maxStreamingContentChars?: number;
  /** Robot messages accepted so far, oldest first. */
  readonly robotMessages: DingTalkRobotMessage[];
  /** Files uploaded to `/media/upload` (what `sampleFile` messages name). */
  readonly media: DingTalkMediaStore;
  /** HTTP card callback URLs by `callbackRouteKey` (`POST /v1.0/card/callbacks/register`). */
  readonly callbackRoutes: Map<string, DingTalkCallbackRoute>;
}

/** A registered HTTP card callback: where clicks on cards created with its route key are posted. */
export interface DingTalkCallbackRoute {
  readonly url: string;
  /** "加密密钥用于校验来源": the secret the callbacks are signed with. */
  readonly apiSecret?: string;
}

/** A successful answer: the JSON body plus what to record. */
export interface HandlerResult {
  readonly body: unknown;
  readonly card?: DingTalkCardInstance;
  readonly change?: DingTalkChangeKind;
}

/** One delivery result as `createAndDeliver` / `deliver` report it. */
interface DeliverResult {
  spaceType: string;
  spaceId: string;
  success: boolean;
  carrierId?: string;
  errorMsg?: string;
}

function deliver(ctx: HandlerContext, body: unknown): DeliverResult[] {
  const request = parseDeliver(body);
  const decision = ctx.deliveryFaults.onCall(DELIVERY_ROUTE, request.outTrackId);
  const injected = decision.response?.body as { errorMsg?: unknown } | undefined;
  const failed = new Map<number, string>();
  if (decision.response) {
    const errorMsg = typeof injected?.errorMsg === 'string' ? injected.errorMsg : 'SYSTEM_ERROR';
    for (const index of request.spaces.keys()) failed.set(index, errorMsg);
  }
  const spaces = ctx.store.deliver(request.outTrackId, request.openSpaceId, request.spaces, failed, () => `${randomHex(24)}=`, ctx.clock());
  return spaces.map(toResult);
}

function toResult(space: DingTalkCardSpace): DeliverResult {
  return space.delivery === 'delivered'
    ? { spaceType: space.spaceType, spaceId: space.spaceId, success: true, carrierId: space.carrierId }
    : { spaceType: space.spaceType, spaceId: space.spaceId, success: false, errorMsg: space.errorMsg };
}

/** The key (card or app) a call is about, read from its body before it is validated. */
export function keyOf(route: DingTalkRoute, body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const field = route === 'oauth2.accessToken' ? 'appKey' : route.startsWith('robot.') ? 'robotCode' : 'outTrackId';
  const value = (body as Record<string, unknown>)[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Runs one route's logic on a parsed body (the token, if the route needs one, was already checked).
 * @throws DingTalkApiFailure with the documented status and code.
 */
export function handle(ctx: HandlerContext, route: DingTalkRoute, body: unknown): HandlerResult {
  switch (route) {
    case 'oauth2.accessToken': {
      const b = (body ?? {}) as Record<string, unknown>;
      return { body: ctx.tokens.issue(b.appKey, b.appSecret) };
    }
    case 'card.callbacks.register':
      return { body: registerCallback(ctx, body) };
    case 'card.create': {
      const request = parseCreate(body, ctx.knownTemplates);
      const card = ctx.store.create({ ...request, at: ctx.clock() });
      return { body: { success: true, result: request.outTrackId }, card, change: 'created' };
    }
    case 'card.createAndDeliver': {
      const request = parseCreate(body, ctx.knownTemplates);
      parseDeliver(body); // refuse a bad delivery before anything is created
      ctx.store.create({ ...request, at: ctx.clock() });
      const deliverResults = deliver(ctx, body);
      return {
        body: { success: true, result: { outTrackId: request.outTrackId, deliverResults } },
        card: ctx.store.get(request.outTrackId),
        change: 'created',
      };
    }
    case 'card.deliver': {
      const results = deliver(ctx, body);
      const outTrackId = (body as { outTrackId: string }).outTrackId;
      return { body: { success: true, result: results }, card: ctx.store.get(outTrackId), change: 'delivered' };
    }
    case 'card.update': {
      const request = parseUpdate(body);
      const card = ctx.store.update(request.outTrackId, request, ctx.clock());
      return { body: { success: true, result: true }, card, change: 'updated' };
    }
    case 'card.streaming': {
      const frame = parseStreaming(body, ctx.maxStreamingContentChars);
      if (!ctx.store.has(frame.outTrackId)) throw failures.streamCardNotExist();
      // soimy/openclaw-channel-dingtalk#81: a key that is not a streaming variable answers 500 unknownError.
      if (ctx.streamingKeys && !ctx.streamingKeys.has(frame.key)) throw failures.unknownError();
      const { applied, card } = ctx.store.stream(frame.outTrackId, frame, ctx.clock());
      return { body: { success: true, result: true }, card, change: applied ? 'streamed' : undefined };
    }
    case 'robot.groupMessages.send':
      return { body: acceptRobotMessage(body, 'group', ctx.clock(), ctx.robotMessages, ctx.media) };
    case 'robot.oToMessages.batchSend':
      return { body: acceptRobotMessage(body, 'user', ctx.clock(), ctx.robotMessages, ctx.media) };
    default:
      throw new DingTalkApiFailure(500, 'unknownError', '未知错误');
  }
}

/**
 * `POST /v1.0/card/callbacks/register` (https://open.dingtalk.com/document/development/register-card-callback-address):
 * maps `callbackRouteKey` to `callbackUrl` (and `apiSecret`). One route key maps to one URL; an
 * existing key is replaced only with `forceUpdate: true`.
 * @throws 400 `param.empty`, `param.callbackRouteKeyEmpty`, `param.callbackUrlEmpty`; 500 `param.callbackRouteKeyExist`.
 */
function registerCallback(ctx: HandlerContext, body: unknown): unknown {
  if (typeof body !== 'object' || body === null) throw failures.param('param.empty');
  const b = body as Record<string, unknown>;
  if (typeof b.callbackRouteKey !== 'string' || b.callbackRouteKey.trim() === '') throw failures.param('param.callbackRouteKeyEmpty');
  if (typeof b.callbackUrl !== 'string' || b.callbackUrl.trim() === '') throw failures.param('param.callbackUrlEmpty');
  if (ctx.callbackRoutes.has(b.callbackRouteKey) && b.forceUpdate !== true) throw new DingTalkApiFailure(500, 'param.callbackRouteKeyExist', 'param.callbackRouteKeyExist');
  const apiSecret = typeof b.apiSecret === 'string' && b.apiSecret !== '' ? b.apiSecret : undefined;
  ctx.callbackRoutes.set(b.callbackRouteKey, { url: b.callbackUrl, ...(apiSecret ? { apiSecret } : {}) });
  return { success: true, result: { callbackUrl: b.callbackUrl, ...(apiSecret ? { apiSecret } : {}) } };
}
