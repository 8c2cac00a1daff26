import type { DingTalkOperation } from './errors.js';

/**
 * One route of the new-style DingTalk Open API (`https://api.dingtalk.com`). `Body` and `Answer`
 * type what {@link DingTalkHttp.call} sends and returns for it.
 */
export interface DingTalkRoute<Body, Answer> {
  /** Names the call in errors and logs. */
  readonly operation: DingTalkOperation;
  readonly method: 'POST' | 'PUT';
  readonly path: string;
  /** The platform doc of the route. */
  readonly doc: string;
  /** Type carrier only; never set. */
  readonly types?: { readonly body: Body; readonly answer: Answer };
}

/** `cardData` of a card: every `cardParamMap` value is a string (https://open.dingtalk.com/document/development/instructions-for-filling-in-api-card-data). */
interface CardData {
  readonly cardParamMap: Readonly<Record<string, string>>;
}

/** Body of `createAndDeliver`: the card with its data, and the delivery fields of its target (see `deliveryFields`). */
export interface CreateAndDeliverBody extends Readonly<Record<string, unknown>> {
  readonly cardTemplateId: string;
  readonly outTrackId: string;
  readonly cardData: CardData;
}

/** Body of `deliver`: an existing card to a space. */
export interface DeliverBody extends Readonly<Record<string, unknown>> {
  readonly outTrackId: string;
  readonly openSpaceId: unknown;
}

/** Body of the card update (`PUT /v1.0/card/instances`). */
export interface UpdateCardBody {
  readonly outTrackId: string;
  readonly cardData: CardData;
  readonly cardUpdateOptions: { readonly updateCardDataByKey: boolean };
}

/**
 * Body of the AI-card streaming update (`PUT /v1.0/card/streaming`): `content` replaces (`isFull`)
 * the streaming variable `key`; `guid` is new for every call; `isFinalize` ends the stream in the
 * finished state, `isError` in the failed state.
 */
export interface StreamingUpdateBody {
  readonly outTrackId: string;
  readonly guid: string;
  readonly key: string;
  readonly content: string;
  readonly isFull: boolean;
  readonly isFinalize: boolean;
  readonly isError: boolean;
}

/** Body of a robot group message: `msgKey` `sampleText` takes `msgParam` `{"content": …}`. */
export interface RobotGroupMessageBody {
  readonly robotCode: string;
  readonly openConversationId: string;
  readonly msgKey: string;
  readonly msgParam: string;
}

/** Body of a robot 1:1 message to `userIds`. */
export interface RobotUserMessageBody {
  readonly robotCode: string;
  readonly userIds: readonly string[];
  readonly msgKey: string;
  readonly msgParam: string;
}

function route<Body, Answer>(entry: DingTalkRoute<Body, Answer>): DingTalkRoute<Body, Answer> {
  return entry;
}

/** The DingTalk routes the plugin calls. */
export const DINGTALK_API_ROUTES = {
  /** The app's access token (`expireIn` in seconds, 7200 usually). */
  accessToken: route<{ appKey: string; appSecret: string }, { accessToken?: unknown; expireIn?: unknown }>({
    operation: 'token',
    method: 'POST',
    path: '/v1.0/oauth2/accessToken',
    doc: 'https://open.dingtalk.com/document/development/obtain-the-access-token-of-an-internal-app',
  }),
  /** Create a card with its data and deliver it to a chat; `deliverResults[].success` may still be false. */
  createAndDeliver: route<CreateAndDeliverBody, { result?: { deliverResults?: unknown } }>({
    operation: 'createAndDeliver',
    method: 'POST',
    path: '/v1.0/card/instances/createAndDeliver',
    doc: 'https://open.dingtalk.com/document/development/create-and-deliver-cards',
  }),
  /** Deliver a card that exists but did not reach the chat. */
  deliver: route<DeliverBody, { result?: unknown }>({
    operation: 'deliver',
    method: 'POST',
    path: '/v1.0/card/instances/deliver',
    doc: 'https://open.dingtalk.com/document/development/delivery-card-interface',
  }),
  /** Update a card's data by key; `result: false` means it was not applied. */
  updateCard: route<UpdateCardBody, unknown>({
    operation: 'update',
    method: 'PUT',
    path: '/v1.0/card/instances',
    doc: 'https://open.dingtalk.com/document/development/interactive-card-update-interface',
  }),
  /** Write the streaming variable of an AI card (markdown needs `isFull: true`). */
  streamCard: route<StreamingUpdateBody, unknown>({
    operation: 'stream',
    method: 'PUT',
    path: '/v1.0/card/streaming',
    doc: 'https://open.dingtalk.com/document/development/api-streamingupdate',
  }),
  /** Map a `callbackRouteKey` to the URL that receives HTTP card callbacks (signed with `apiSecret`). */
  registerCallback: route<{ callbackRouteKey: string; callbackUrl: string; apiSecret?: string; forceUpdate: boolean }, { success?: unknown }>({
    operation: 'registerCallback',
    method: 'POST',
    path: '/v1.0/card/callbacks/register',
    doc: 'https://open.dingtalk.com/document/development/register-card-callback-address',
  }),
  /** A robot's plain message to a group (`msgParam` a JSON string ≤ 15 000 bytes). */
  groupMessage: route<RobotGroupMessageBody, { processQueryKey?: unknown }>({
    operation: 'robotMessage',
    method: 'POST',
    path: '/v1.0/robot/groupMessages/send',
    doc: 'https://open.dingtalk.com/document/orgapp/the-robot-sends-a-group-message',
  }),
  /** A robot's plain message to users in their 1:1 chats. */
  userMessage: route<RobotUserMessageBody, { processQueryKey?: unknown }>({
    operation: 'robotMessage',
    method: 'POST',
    path: '/v1.0/robot/oToMessages/batchSend',
    doc: 'https://open.dingtalk.com/document/orgapp/chatbots-send-one-on-one-chat-messages-in-batches',
  }),
} as const;
