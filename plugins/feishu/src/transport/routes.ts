import type * as lark from '@larksuiteoapi/node-sdk';
import type { ReceiveIdType } from '../config.js';

/** What the SDK resolves a message call to (HTTP 200 answers; a non-zero `code` is an error). */
export interface FeishuAnswer {
  readonly code?: number;
  readonly msg?: string;
  readonly data?: {
    readonly message_id?: string;
    readonly chat_id?: string;
    /** The topic the message is in (a reply with `reply_in_thread`, or any message of a topic group). */
    readonly thread_id?: string;
    /** The message's content as stored (a card sent by reference: `{"type":"card","data":{"card_id":…}}`). */
    readonly body?: { readonly content?: string };
    /** CardKit create: the new entity. */
    readonly card_id?: string;
  };
}

/** One Open API route the transport calls, through the SDK method that wraps it. */
export interface FeishuRoute<Request> {
  readonly method: 'POST' | 'PATCH' | 'PUT';
  /** Path under the domain, `:message_id` / `:card_id` / `:element_id` as placeholders. */
  readonly path: string;
  /** The SDK method that calls it. */
  readonly sdkMethod: string;
  /** The platform doc of the route. */
  readonly doc: string;
  /** Calls the route with the SDK client (which adds the tenant_access_token). */
  call(client: lark.Client, request: Request): Promise<FeishuAnswer>;
}

/** Arguments of {@link FEISHU_API_ROUTES}`.createMessage`. `uuid` is the idempotency key (≤ 50 chars, one message per uuid within 1 hour). */
export interface CreateMessageRequest {
  readonly receiveIdType: ReceiveIdType;
  readonly receiveId: string;
  readonly content: string;
  readonly uuid: string;
}

/** Arguments of {@link FEISHU_API_ROUTES}`.replyMessage`. */
export interface ReplyMessageRequest {
  /** The message replied to. */
  readonly messageId: string;
  readonly content: string;
  readonly uuid: string;
  readonly replyInThread: boolean;
  /** `interactive` (a card, default) or `text` (the completion ping). */
  readonly msgType?: 'interactive' | 'text';
}

/** Arguments of {@link FEISHU_API_ROUTES}`.patchMessage`. */
export interface PatchMessageRequest {
  readonly messageId: string;
  readonly content: string;
}

/** Declares one route (keeps its request type). */
export function route<Request>(entry: FeishuRoute<Request>): FeishuRoute<Request> {
  return entry;
}

/**
 * The Feishu Open API routes the plugin uses. Cards are `msg_type: interactive` messages whose
 * `content` is the Card JSON 2.0 card, stringified.
 */
export const FEISHU_API_ROUTES = {
  /** Send a card to a chat or user. */
  createMessage: route<CreateMessageRequest>({
    method: 'POST',
    path: '/open-apis/im/v1/messages',
    sdkMethod: 'im.v1.message.create',
    doc: 'https://open.larkoffice.com/document/uAjLw4CM/ukTMukTMukTM/reference/im-v1/message/create',
    call: (client, r) =>
      client.im.v1.message.create({
        params: { receive_id_type: r.receiveIdType },
        data: { receive_id: r.receiveId, msg_type: 'interactive', content: r.content, uuid: r.uuid },
      }) as Promise<FeishuAnswer>,
  }),
  /** Send a card as a reply to a message (a configured parent, or a card's main message for its continuation parts). */
  replyMessage: route<ReplyMessageRequest>({
    method: 'POST',
    path: '/open-apis/im/v1/messages/:message_id/reply',
    sdkMethod: 'im.v1.message.reply',
    doc: 'https://open.feishu.cn/document/server-docs/im-v1/message/reply',
    call: (client, r) =>
      client.im.v1.message.reply({
        path: { message_id: r.messageId },
        data: { msg_type: r.msgType ?? 'interactive', content: r.content, uuid: r.uuid, reply_in_thread: r.replyInThread },
      }) as Promise<FeishuAnswer>,
  }),
  /** Replace a sent card (shared cards only, `update_multi: true`; 5 updates/s per message, 14 days). */
  patchMessage: route<PatchMessageRequest>({
    method: 'PATCH',
    path: '/open-apis/im/v1/messages/:message_id',
    sdkMethod: 'im.v1.message.patch',
    doc: 'https://open.larkoffice.com/document/uAjLw4CM/ukTMukTMukTM/reference/im-v1/message/patch',
    call: (client, r) =>
      client.im.v1.message.patch({ path: { message_id: r.messageId }, data: { content: r.content } }) as Promise<FeishuAnswer>,
  }),
} as const;

// The token route (`POST /open-apis/auth/v3/tenant_access_token/internal`, doc:
// https://open.larkoffice.com/document/ukTMukTMukTM/ukDNz4SO0MjL5QzM/auth-v3/auth/tenant_access_token_internal)
// is called by the SDK itself; its answers are cached in the plugin's own `TokenCache`.
