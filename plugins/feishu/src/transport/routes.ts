import { platformCallMade } from '@progresscard/core/plugin';
import { Readable } from 'node:stream';
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
    /** Image upload: the key a card's `img` component shows it by. */
    readonly image_key?: string;
    /** `im.v1.message.list`: the messages found. */
    readonly items?: readonly ListedMessage[];
    /** `im.v1.file.create`: the uploaded file's key. */
    readonly file_key?: string;
    /** Reaction create: its id, for removing it. */
    readonly reaction_id?: string;
  };
}

/** One Open API route the transport calls, through the SDK method that wraps it. */
export interface FeishuRoute<Request> {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
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
  /** Default `interactive` (a card); `file` for a file message. */
  readonly msgType?: 'interactive' | 'file';
}

/** Arguments of {@link FEISHU_API_ROUTES}`.replyMessage`. */
export interface ReplyMessageRequest {
  /** The message replied to. */
  readonly messageId: string;
  readonly content: string;
  readonly uuid: string;
  readonly replyInThread: boolean;
  /** `interactive` (a card, default) or `text` (the completion ping). */
  readonly msgType?: 'interactive' | 'text' | 'file';
}

/** Arguments of {@link FEISHU_API_ROUTES}`.patchMessage`. */
export interface PatchMessageRequest {
  readonly messageId: string;
  readonly content: string;
}

/** Arguments of {@link FEISHU_API_ROUTES}`.uploadImage`. */
export interface UploadImageRequest {
  /** The image file (JPG, PNG, WEBP, GIF, BMP, ICO, TIFF, HEIC), 1 byte to 10 MB. */
  readonly image: Buffer;
  /** File name of the form part (default `image`). */
  readonly fileName?: string;
}

/** Arguments of {@link FEISHU_API_ROUTES}`.uploadFile`. */
export interface UploadFileRequest {
  /** The file, 1 byte to {@link FEISHU_MAX_FILE_BYTES}. */
  readonly file: Buffer;
  /** File name with its extension, shown in the chat. */
  readonly fileName: string;
}

/** Largest file `im.v1.file.create` accepts: 30 MB, and no empty file (https://open.feishu.cn/document/server-docs/im-v1/file/create). */
export const FEISHU_MAX_FILE_BYTES = 30 * 1024 * 1024;

/** Arguments of {@link FEISHU_API_ROUTES}`.listMessages`. */
export interface ListMessagesRequest {
  readonly chatId: string;
  /** 1 to 50. */
  readonly pageSize: number;
}

/** One item of `im.v1.message.list`'s answer (the fields the plugin reads). */
interface ListedMessage {
  readonly message_id?: string;
  readonly parent_id?: string;
}

/** Arguments of {@link FEISHU_API_ROUTES}`.addReaction`. */
export interface AddReactionRequest {
  readonly messageId: string;
  /** A Feishu emoji type, e.g. `Typing`, `OnIt` (case-sensitive). */
  readonly emojiType: string;
}

/** Arguments of {@link FEISHU_API_ROUTES}`.deleteReaction`. */
export interface DeleteReactionRequest {
  readonly messageId: string;
  readonly reactionId: string;
}

/** Declares one route (keeps its request type). */
export function route<Request>(entry: FeishuRoute<Request>): FeishuRoute<Request> {
  // Every request counts toward the tenant's monthly API call quota.
  return {
    ...entry,
    call: (client, request) => {
      platformCallMade();
      return entry.call(client, request);
    },
  };
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
        data: { receive_id: r.receiveId, msg_type: r.msgType ?? 'interactive', content: r.content, uuid: r.uuid },
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
  /**
   * Recall a message the bot sent, within the tenant's recall window (default 24 hours, the tenant
   * admin's setting): 230009 after it, 230026 for a message the bot did not send; 1000/min, 50/s.
   */
  recallMessage: route<{ readonly messageId: string }>({
    method: 'DELETE',
    path: '/open-apis/im/v1/messages/:message_id',
    sdkMethod: 'im.v1.message.delete',
    doc: 'https://open.feishu.cn/document/server-docs/im-v1/message/delete',
    call: (client, r) => client.im.v1.message.delete({ path: { message_id: r.messageId } }) as Promise<FeishuAnswer>,
  }),
  /**
   * Upload an image for messages and cards (`image_type: message`), 10 MB at most; the answer's
   * `image_key` goes into a card's `img` component. Same per-app limits (1000/min, 50/s).
   */
  uploadImage: route<UploadImageRequest>({
    method: 'POST',
    path: '/open-apis/im/v1/images',
    sdkMethod: 'im.v1.image.create',
    doc: 'https://open.feishu.cn/document/server-docs/im-v1/image/create',
    // The SDK resolves uploads to the answer's `data` (`{ image_key }`), not the whole answer. A
    // Buffer would be copied into a form part without a file name (a text field); a stream with a
    // `path` goes as a file part named after it, like `fs.createReadStream`.
    call: async (client, r) => {
      const image = Object.assign(Readable.from([r.image]), { path: r.fileName ?? 'image' });
      const data = (await client.im.v1.image.create({ data: { image_type: 'message', image: image as unknown as Buffer } })) as { image_key?: string } | null;
      return { code: 0, data: { image_key: data?.image_key } };
    },
  }),
  /**
   * Upload a file for a file message (`file_type: stream`: any kind of file), 30 MB at most, not
   * empty; the answer's `file_key` goes into a `msg_type: file` message. Needs `im:resource` (or
   * `im:resource:upload`); 1000/min, 50/s per app.
   */
  uploadFile: route<UploadFileRequest>({
    method: 'POST',
    path: '/open-apis/im/v1/files',
    sdkMethod: 'im.v1.file.create',
    doc: 'https://open.feishu.cn/document/server-docs/im-v1/file/create',
    // As for images: a stream with a `path` goes as a file part named after it.
    call: async (client, r) => {
      const file = Object.assign(Readable.from([r.file]), { path: r.fileName });
      const data = (await client.im.v1.file.create({ data: { file_type: 'stream', file_name: r.fileName, file: file as unknown as Buffer } })) as { file_key?: string } | null;
      return { code: 0, data: { file_key: data?.file_key } };
    },
  }),
  /**
   * The chat's latest messages, newest first (`container_id_type: chat`, `sort_type:
   * ByCreateTimeDesc`): the completion ping counts those after the card. Reading other members'
   * messages in a group needs the `im:message.group_msg` scope (UNCONFIRMED which scope suffices
   * for a bot; without it the platform refuses and the ping goes by run time only).
   */
  listMessages: route<ListMessagesRequest>({
    method: 'GET',
    path: '/open-apis/im/v1/messages',
    sdkMethod: 'im.v1.message.list',
    doc: 'https://open.feishu.cn/document/server-docs/im-v1/message/list',
    call: (client, r) =>
      client.im.v1.message.list({
        params: { container_id_type: 'chat', container_id: r.chatId, sort_type: 'ByCreateTimeDesc', page_size: r.pageSize },
      }) as Promise<FeishuAnswer>,
  }),
  /** Add a reaction (an emoji) to a message; the answer's `reaction_id` removes it again. Needs `im:message.reactions:write_only`. */
  addReaction: route<AddReactionRequest>({
    method: 'POST',
    path: '/open-apis/im/v1/messages/:message_id/reactions',
    sdkMethod: 'im.v1.messageReaction.create',
    doc: 'https://open.feishu.cn/document/server-docs/im-v1/message-reaction/create',
    call: (client, r) =>
      client.im.v1.messageReaction.create({ path: { message_id: r.messageId }, data: { reaction_type: { emoji_type: r.emojiType } } }) as Promise<FeishuAnswer>,
  }),
  /** Remove a reaction the app added. */
  deleteReaction: route<DeleteReactionRequest>({
    method: 'DELETE',
    path: '/open-apis/im/v1/messages/:message_id/reactions/:reaction_id',
    sdkMethod: 'im.v1.messageReaction.delete',
    doc: 'https://open.feishu.cn/document/server-docs/im-v1/message-reaction/delete',
    call: (client, r) =>
      client.im.v1.messageReaction.delete({ path: { message_id: r.messageId, reaction_id: r.reactionId } }) as Promise<FeishuAnswer>,
  }),
} as const;

// The token route (`POST /open-apis/auth/v3/tenant_access_token/internal`, doc:
// https://open.larkoffice.com/document/ukTMukTMukTM/ukDNz4SO0MjL5QzM/auth-v3/auth/tenant_access_token_internal)
// is called by the SDK itself; its answers are cached in the plugin's own `TokenCache`.
