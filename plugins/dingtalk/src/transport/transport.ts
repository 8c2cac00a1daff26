import { createHash } from 'node:crypto';
import { countingPlatformCalls, readAttachmentFile, showValue, type AttachedFile, type AttachFileRequest, type CardTransport, type CallFailure, type MessageRef, type ReplyRequest, type SendRequest, type TransportNotice, type UpdateRequest } from '@progresscard/core/plugin';
import { classifyDingTalkError } from './classify.js';
import { DingTalkApiError, DingTalkDeliveryError, DingTalkStreamingRefusedError, DingTalkTargetError, type FailedDelivery } from './errors.js';
import type { DingTalkCardPayload } from '../render/payload.js';
import type { DingTalkHttp } from './http.js';
import { DINGTALK_API_ROUTES } from './routes.js';
import { DingTalkTargetSchema, deliveryFields, describeTarget, type DingTalkTarget } from './target.js';
import type { AccessTokenCache } from './token.js';
import type { CardWriter } from './card-writer.js';
import { DINGTALK_MAX_FILE_BYTES, fileTypeOf, type DingTalkMediaUploader } from './media-upload.js';

/**
 * Where the first message of a card stands while its send may be retried (per outTrackId):
 * - `new`: nothing reached DingTalk yet (or we do not know): `createAndDeliver`;
 * - `created`: the card exists but `deliverResults` said it did not reach the chat: update its data,
 *   then `POST /v1.0/card/instances/deliver`;
 * - `delivered`: in the chat, but its content may still have to be streamed (a retry only does that);
 *   once it is, the send is done and later calls are updates.
 */
export type CardSendPhase = 'new' | 'created' | 'delivered';

/** Allowed moves of {@link CardSendPhase}. */
const SEND_TRANSITIONS: Readonly<Record<CardSendPhase, readonly CardSendPhase[]>> = {
  new: ['created', 'delivered'],
  created: ['delivered'],
  delivered: [],
};

/** Options of {@link DingTalkTransport}. */
export interface DingTalkTransportOptions {
  readonly http: DingTalkHttp;
  readonly tokens: AccessTokenCache;
  /** Writes a created card's data and content (instance update and, by default, the streaming API). */
  readonly writer: CardWriter;
  readonly cardTemplateId: string;
  readonly robotCode: string;
  /** Platform requests per operation (see `CardTransport.callsPerOperation`). */
  readonly callsPerOperation?: CardTransport<DingTalkCardPayload>['callsPerOperation'];
  /** Used when a send names no target. */
  readonly defaultTarget?: DingTalkTarget;
  /**
   * Where card callbacks go (set when `callbacks` are configured): `STREAM`, the app's Stream-mode
   * client; `HTTP`, the URL registered for `callbackRouteKey`.
   */
  readonly callbackType?: 'STREAM' | 'HTTP';
  /** The route key of HTTP card callbacks (with `callbackType: 'HTTP'`). */
  readonly callbackRouteKey?: string;
  /** Uploads files for `attachFile`, read only inside `roots` (none: no file is read). */
  readonly files?: { readonly uploader: DingTalkMediaUploader; readonly roots: readonly string[] };
}

const OUT_TRACK_ID_PREFIX = 'pc-';
/** DingTalk: outTrackId ≤ 100 characters, ≤ 64 recommended (legacy card docs, https://open.dingtalk.com/document/development/send-interactive-dynamic-cards-1). */
const MAX_OUT_TRACK_ID = 64;

/**
 * The card's `outTrackId` for the core's idempotency key: `pc-<key>` when the key is short and plain,
 * else `pc-` + 40 hex characters of its SHA-256. Stable: the same key always gives the same id, so a
 * retried send can never create a second card.
 */
export function outTrackIdFor(idempotencyKey: string): string {
  const plain = /^[A-Za-z0-9_-]+$/.test(idempotencyKey) && OUT_TRACK_ID_PREFIX.length + idempotencyKey.length <= MAX_OUT_TRACK_ID;
  return OUT_TRACK_ID_PREFIX + (plain ? idempotencyKey : createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 40));
}

interface DeliverResult {
  spaceType?: string;
  spaceId?: string;
  success?: boolean;
  errorMsg?: string;
}

function failedOf(results: unknown): FailedDelivery[] | undefined {
  if (!Array.isArray(results) || results.length === 0) return [];
  const failed = (results as DeliverResult[]).filter((r) => r?.success !== true);
  return failed.length > 0 ? failed.map((r) => ({ spaceType: r.spaceType, spaceId: r.spaceId, errorMsg: r.errorMsg })) : undefined;
}

/**
 * Sends and updates DingTalk cards on the new card platform:
 * - send: `POST /v1.0/card/instances/createAndDeliver` with the initial data already set (no empty
 *   shell card, xmanrui/dsh-im PR #174), outTrackId from the idempotency key; then, in `streaming`
 *   content mode, the content through `PUT /v1.0/card/streaming`;
 * - update: the other variables with `PUT /v1.0/card/instances` (`updateCardDataByKey: true`) and the
 *   content through the streaming API (see `ContentMode`); each step only when it changed;
 * - a 200 whose `deliverResults[].success` is false is a failed send ({@link DingTalkDeliveryError}).
 *
 * - attachFile: a file the agent produced is uploaded and sent by the robot into the card's chat
 *   (see {@link DingTalkTransport.attachFile}).
 *
 * No `messagesAfter`: no DingTalk API lists a group's messages for an app robot (the robot
 * methods send, recall and query the read state of the robot's own messages,
 * https://open.dingtalk.com/document/orgapp/chatbots-send-one-on-one-chat-messages-in-batches and
 * the robot-message pages), and the robot's callback receives only messages that @-mention it. A
 * DingTalk card gets its completion ping by run time (`afterMs`) only.
 */
export class DingTalkTransport implements CardTransport<DingTalkCardPayload, DingTalkTarget> {
  /** Cards whose send is between `new` and `delivered`. */
  private readonly phases = new Map<string, { phase: CardSendPhase; target: DingTalkTarget }>();
  /** Replies and files already posted, by idempotency key (the robot API takes no key of its own). */
  private readonly replies = new Map<string, MessageRef>();

  constructor(private readonly options: DingTalkTransportOptions) {}

  /**
   * Creates and delivers the card (`createAndDeliver`). `replyToMessage` (a card opened with
   * `replyTo`) is not used: DingTalk cards are delivered to a conversation space (`IM_GROUP` /
   * `IM_ROBOT`) and the delivery API has no field for a triggering message or a thread
   * (https://open.dingtalk.com/document/development/create-and-deliver-cards), so in group chats
   * the card is a normal message of the group.
   * @throws DingTalkTargetError when no valid target is given or configured; DingTalkApiError,
   *   DingTalkNetworkError, DingTalkDeliveryError (see {@link classify}).
   */
  get callsPerOperation(): CardTransport<DingTalkCardPayload>['callsPerOperation'] {
    return this.options.callsPerOperation;
  }

  send(request: SendRequest<DingTalkCardPayload, DingTalkTarget>): Promise<MessageRef> {
    return countingPlatformCalls(request.extraCalls, () => this.sendCard(request));
  }

  private async sendCard(request: SendRequest<DingTalkCardPayload, DingTalkTarget>): Promise<MessageRef> {
    const replacement = this.replacedKeys.get(request.idempotencyKey);
    if (replacement) return this.sendCard({ ...request, idempotencyKey: replacement });
    try {
      return await this.sendOnce(request);
    } catch (error) {
      if (!(error instanceof DingTalkStreamingRefusedError)) throw error;
      // Its template shows only streamed content, which this app may not write: the card is made
      // again with the card-data template, in the same call (the refused one keeps its title only).
      const key = `${request.idempotencyKey}~card-data`;
      this.replacedKeys.set(request.idempotencyKey, key);
      if (this.replacedKeys.size > 1000) this.replacedKeys.delete(this.replacedKeys.keys().next().value!);
      return this.sendOnce({ ...request, idempotencyKey: key });
    }
  }

  /** Idempotency keys whose card was replaced after the streaming API was refused, and the key of the replacement. */
  private readonly replacedKeys = new Map<string, string>();

  private async sendOnce(request: SendRequest<DingTalkCardPayload, DingTalkTarget>): Promise<MessageRef> {
    const outTrackId = outTrackIdFor(request.idempotencyKey);
    const known = this.phases.get(outTrackId);
    const target = known?.target ?? this.resolveTarget(request.target);
    const ref: MessageRef = { id: outTrackId, extra: { target: describeTarget(target) } };

    const { writer } = this.options;
    if (known?.phase === 'created') {
      await writer.write(outTrackId, request.payload);
      await this.deliver(outTrackId, target);
      this.move(outTrackId, target, 'delivered');
      return this.done(outTrackId, ref);
    }
    if (known?.phase === 'delivered') {
      await writer.write(outTrackId, request.payload);
      return this.done(outTrackId, ref);
    }
    const token = await this.options.tokens.get();
    let answer: { result?: { deliverResults?: unknown } };
    const cardTemplateId = writer.templateFor(this.options.cardTemplateId);
    try {
      answer = await this.options.http.call(DINGTALK_API_ROUTES.createAndDeliver, {
        cardTemplateId,
        outTrackId,
        cardData: { cardParamMap: request.payload.cardParamMap },
        ...(this.options.callbackType ? { callbackType: this.options.callbackType } : {}),
        ...(this.options.callbackRouteKey ? { callbackRouteKey: this.options.callbackRouteKey } : {}),
        ...deliveryFields(target, this.options.robotCode),
      }, token);
    } catch (error) {
      // An earlier try with this key reached DingTalk but its answer was lost (timeout): the card
      // exists. Bring it up to date instead of creating another, and deliver it: whether that try's
      // delivery reached the chat is unknown (its deliverResults were lost with the answer), and a
      // redelivery to a space that holds the card updates that message in place.
      if (error instanceof DingTalkApiError && error.code === 'param.cardAlreadyExist') {
        this.move(outTrackId, target, 'created');
        await writer.write(outTrackId, request.payload);
        await this.deliver(outTrackId, target);
        this.move(outTrackId, target, 'delivered');
        return this.done(outTrackId, ref);
      }
      throw error;
    }
    writer.created(outTrackId, request.payload, cardTemplateId);
    const failed = failedOf(answer.result?.deliverResults);
    if (failed) {
      this.move(outTrackId, target, 'created');
      throw new DingTalkDeliveryError(outTrackId, failed);
    }
    this.move(outTrackId, target, 'delivered');
    await writer.write(outTrackId, request.payload);
    return this.done(outTrackId, ref);
  }

  /** The send is complete: no send state is needed any more. */
  private done(outTrackId: string, ref: MessageRef): MessageRef {
    this.phases.delete(outTrackId);
    return ref;
  }

  /**
   * @throws DingTalkApiError (400 `param.cardNotExist` / `param.stream.outTrackId` when the card is
   *   gone; `operation` says whether the instance update or the stream failed), DingTalkNetworkError.
   */
  update(request: UpdateRequest<DingTalkCardPayload>): Promise<void> {
    return countingPlatformCalls(request.extraCalls, () => this.options.writer.write(request.message.id, request.payload));
  }

  /**
   * A plain robot message in the card's chat (`sampleText`): `groupMessages/send` for a group,
   * `oToMessages/batchSend` for a 1:1 chat. The robot API can neither reply to a card nor @-mention
   * (that needs a webhook robot), so the requester is named as `@name` text. The API takes no
   * idempotency key: a key already answered here is not sent again.
   * @throws DingTalkTargetError, DingTalkApiError, DingTalkNetworkError.
   */
  async reply(request: ReplyRequest<DingTalkTarget>): Promise<MessageRef> {
    const known = this.replies.get(request.idempotencyKey);
    if (known) return known;
    const target = this.resolveTarget(request.target);
    const name = request.mention ? `@${request.mention.name ?? request.mention.id} ` : '';
    return this.robotMessage(target, 'sampleText', { content: `${name}${request.text}` }, request.idempotencyKey);
  }

  /**
   * Sends a file the agent produced into the card's chat: read only inside `fileRoots`, at most
   * 20 MB ({@link DINGTALK_MAX_FILE_BYTES}); uploaded with `POST https://oapi.dingtalk.com/media/upload?type=file`
   * (https://open.dingtalk.com/document/orgapp/upload-media-files), then sent by the robot as a
   * `sampleFile` message (`groupMessages/send` for a group, `oToMessages/batchSend` for a 1:1
   * chat) with `msgParam` `{"mediaId", "fileName", "fileType"}` (`fileType` the extension). The
   * `sampleFile` key is in the official catalogue (https://open.dingtalk.com/document/development/robot-message-type);
   * its `msgParam` fields agree across independent SDKs and connectors but are UNCONFIRMED
   * against the official page, as is the 20 MB limit. A robot message cannot reply to a card, and
   * DingTalk gives no link to it: the card names the file. Sent once per key.
   * @throws Error naming why (no roots, outside them, empty, over 20 MB), DingTalkApiError
   *   (e.g. `errcode 40006` for a file the upload refuses), DingTalkTargetError, DingTalkNetworkError.
   */
  async attachFile(request: AttachFileRequest<DingTalkTarget>): Promise<AttachedFile> {
    if (this.replies.has(request.idempotencyKey)) return {};
    const files = this.options.files;
    if (!files || files.roots.length === 0) throw new Error('no folder is allowed for uploads (fileRoots not set)');
    const target = this.resolveTarget(request.target);
    const bytes = await readAttachmentFile(request.path, { maxBytes: DINGTALK_MAX_FILE_BYTES, roots: files.roots });
    const mediaId = await files.uploader.upload(request.name, bytes);
    const param = { mediaId, fileName: request.name, fileType: fileTypeOf(request.name) };
    try {
      await this.robotMessage(target, 'sampleFile', param, request.idempotencyKey);
    } catch (error) {
      // The core retries no upload: a token DingTalk no longer takes is fetched again here, once.
      if (this.classify(error).kind !== 'auth') throw error;
      this.options.tokens.invalidate();
      await this.robotMessage(target, 'sampleFile', param, request.idempotencyKey);
    }
    return {};
  }

  /** A robot message into the target's chat; the API takes no idempotency key, so a key already answered here is not sent again. */
  private async robotMessage(target: DingTalkTarget, msgKey: string, param: Record<string, unknown>, idempotencyKey: string): Promise<MessageRef> {
    const message = { robotCode: this.options.robotCode, msgKey, msgParam: JSON.stringify(param) };
    const token = await this.options.tokens.get();
    const answer = target.type === 'group'
      ? await this.options.http.call(DINGTALK_API_ROUTES.groupMessage, { ...message, openConversationId: target.openConversationId }, token)
      : await this.options.http.call(DINGTALK_API_ROUTES.userMessage, { ...message, userIds: [target.userId] }, token);
    const ref: MessageRef = { id: String(answer.processQueryKey ?? idempotencyKey) };
    this.replies.set(idempotencyKey, ref);
    // Keys of the latest messages are enough: a retry follows its first try within seconds.
    if (this.replies.size > 1000) this.replies.delete(this.replies.keys().next().value!);
    return ref;
  }

  /** Registers the core's listener for the streaming downgrade notice (see `CardWriter`). */
  onNotice(listener: (notice: TransportNotice) => void): void {
    this.options.writer.onNotice(listener);
  }

  async refreshAuth(): Promise<void> {
    this.options.tokens.invalidate();
  }

  classify(error: unknown): CallFailure {
    return classifyDingTalkError(error);
  }

  private async deliver(outTrackId: string, target: DingTalkTarget): Promise<void> {
    const token = await this.options.tokens.get();
    const fields = deliveryFields(target, this.options.robotCode);
    const answer = await this.options.http.call(DINGTALK_API_ROUTES.deliver, {
      outTrackId,
      openSpaceId: fields.openSpaceId,
      ...(target.type === 'group' ? { imGroupOpenDeliverModel: fields.imGroupOpenDeliverModel } : { imRobotOpenDeliverModel: fields.imRobotOpenDeliverModel }),
    }, token);
    const failed = failedOf(answer.result);
    if (failed) throw new DingTalkDeliveryError(outTrackId, failed);
  }

  private move(outTrackId: string, target: DingTalkTarget, next: CardSendPhase): void {
    const current = this.phases.get(outTrackId)?.phase ?? 'new';
    if (current !== next && !SEND_TRANSITIONS[current].includes(next)) {
      throw new Error(`dingtalk card ${outTrackId}: send cannot move from ${current} to ${next}`);
    }
    this.phases.set(outTrackId, { phase: next, target });
  }

  private resolveTarget(given: unknown): DingTalkTarget {
    const raw = given ?? this.options.defaultTarget;
    if (raw === undefined) {
      throw new DingTalkTargetError('dingtalk target = undefined (missing): give one in the config or to ProgressCards.open');
    }
    const parsed = DingTalkTargetSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new DingTalkTargetError(`dingtalk target = ${showValue(raw)} (${[...issue.path].join('.') || 'target'}: ${issue.message})`);
    }
    return parsed.data;
  }
}
