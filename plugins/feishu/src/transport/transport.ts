import { createHash } from 'node:crypto';
import type * as lark from '@larksuiteoapi/node-sdk';
import { countingPlatformCalls, readAttachmentFile, type AttachedFile, type AttachFileRequest, type CardImage, type CardTransport, type CallFailure, type ExtraCalls, type MessageRef, type MessagesAfterRequest, type ReplyRequest, type ReplyToMessage, type SendRequest, type TransportNotice, type UpdateRequest } from '@progresscard/core/plugin';
import type { FeishuConfig, ReceiveIdType } from '../config.js';
import type { FeishuCard } from '../render/payload.js';
import { FEISHU_GUARD_LIMITS, inspectCard, type GuardLimits } from '../render/guards.js';
import { FeishuApiError, FeishuLocalError, classifyFeishuError, feishuCodeOf, isInvalidImageKeyError, missingScopeOf } from './classify.js';
import { FeishuCardImages } from './images.js';
import { WorkingReaction } from './reaction.js';
import { CardKitCards, CardKitUnavailable, isCardKitMessage } from './cardkit.js';
import { createFeishuClient } from './client.js';
import { FEISHU_API_ROUTES, FEISHU_MAX_FILE_BYTES, type FeishuAnswer } from './routes.js';
import { TokenCache } from './token.js';
import type { FeishuTarget } from './target.js';

export type { FeishuTarget } from './target.js';

/** Feishu's `uuid` is at most 50 chars: longer idempotency keys are hashed (stable, so retries still de-duplicate). */
function toFeishuUuid(key: string): string {
  return key.length <= 50 ? key : createHash('sha256').update(key).digest('hex').slice(0, 50);
}

function escapeText(text: string): string {
  return text.replace(/</g, '＜').replace(/>/g, '＞');
}

/** A target with the config's defaults filled in. */
type ResolvedTarget = Required<Pick<FeishuTarget, 'receiveIdType' | 'replyInThread'>> & FeishuTarget;

/** What the transport needs besides the config. */
export interface FeishuTransportOptions {
  readonly limits?: GuardLimits;
  /**
   * A ready SDK client; by default one is built from the config with its own token cache and request
   * timeout. With a client of your own, `refreshAuth` cannot clear its token cache (it does nothing).
   */
  readonly client?: lark.Client;
}

/** 230031: "Message can only be modified within 14 days after sending" (message/patch error table). */
const EDIT_WINDOW_CLOSED = 230031;

/**
 * Sends and patches cards with the official SDK ({@link FEISHU_API_ROUTES}): `im.v1.message.create`,
 * or `reply` (to a configured parent, or to the card's main message for a continuation part) with
 * `uuid` = the idempotency key; `im.v1.message.patch` for updates. With `mode: 'cardkit'` the main
 * card is a CardKit entity sent by reference and updated through {@link CardKitCards}. A card's
 * images are uploaded first (`im.v1.image.create`, see {@link FeishuCardImages}); with
 * `workingReaction` the card message carries that reaction while the run goes on. Answers with a non-zero `code`
 * are thrown as {@link FeishuApiError}. Every card is checked against the guard limits before it
 * leaves; a card that would be refused is not sent (thrown as a `rejected` failure).
 */
export class FeishuTransport implements CardTransport<FeishuCard, FeishuTarget | string> {
  readonly #client: lark.Client;
  readonly #tokens = new TokenCache();
  readonly #config: FeishuConfig;
  readonly #limits: GuardLimits;
  readonly #cardkit: CardKitCards | undefined;
  readonly #images: FeishuCardImages;
  readonly #reaction: WorkingReaction | undefined;
  /** Set once CardKit's create was refused for a missing scope: new cards are plain interactive cards from then on. */
  #cardkitScopeMissing = false;
  /** Idempotency keys whose entities were refused (230099 / 11310): their card goes out as a plain card. */
  readonly #plainKeys = new Set<string>();
  /** Messages whose patch Feishu refused with 230031 (older than 14 days): replaced by a reply to them, then recalled. */
  readonly #editClosed = new Set<string>();
  readonly #noticeListeners: Array<(notice: TransportNotice) => void> = [];

  constructor(config: FeishuConfig, options: FeishuTransportOptions = {}) {
    this.#config = config;
    this.#limits = options.limits ?? FEISHU_GUARD_LIMITS;
    this.#client = options.client ?? createFeishuClient(config, this.#tokens);
    this.#cardkit = config.mode === 'cardkit' ? new CardKitCards(this.#client) : undefined;
    this.#images = new FeishuCardImages(this.#client, config.imageRoots);
    this.#reaction = config.workingReaction ? new WorkingReaction(this.#client, config.workingReaction) : undefined;
  }

  /** CardKit: a send creates the entity and sends the message; a final updates it and closes streaming. */
  get callsPerOperation(): CardTransport<FeishuCard>['callsPerOperation'] {
    return this.#cardkit && !this.#cardkitScopeMissing ? { send: 2, update: 1, final: 2 } : undefined;
  }

  send(request: SendRequest<FeishuCard, FeishuTarget | string>): Promise<MessageRef> {
    return countingPlatformCalls(request.extraCalls, (extraCalls) => this.#send({ ...request, extraCalls }));
  }

  update(request: UpdateRequest<FeishuCard>): Promise<void> {
    return countingPlatformCalls(request.extraCalls, (extraCalls) => this.#update({ ...request, extraCalls }));
  }

  async #send(request: SendRequest<FeishuCard, FeishuTarget | string>): Promise<MessageRef> {
    const target = this.#target(request.target, request.replyToMessage);
    // A card Feishu no longer lets the bot edit (230031) is replaced by a reply to it, so the fresh card
    // names the old one (Feishu shows it quoted above); the old one is then recalled where Feishu allows.
    const editClosed = request.replaces && !request.replyTo && this.#editClosed.has(request.replaces.id) ? request.replaces : undefined;
    const uuid = toFeishuUuid(request.idempotencyKey);
    const ref = await this.#withImages(request, async (card) => {
      this.#guard(card);
      // Continuation parts are finished text: plain card messages in either mode.
      const cardkit = this.#cardkit && !request.replyTo && !this.#cardkitScopeMissing && !this.#plainKeys.has(request.idempotencyKey) ? this.#cardkit : undefined;
      if (cardkit) {
        try {
          return await cardkit.send(
            card,
            request.idempotencyKey,
            (content, attempt) => this.#post(target, content, attempt === 0 ? uuid : toFeishuUuid(`${request.idempotencyKey}~${attempt}`), editClosed, true),
            () => request.extraCalls?.acquire('resend') ?? Promise.resolve(),
          );
        } catch (error) {
          if (!(error instanceof CardKitUnavailable)) throw error;
          if (error.reason === 'missing-scope') this.#downgrade(error.scope);
          else {
            this.#plainKeys.add(request.idempotencyKey);
            if (this.#plainKeys.size > 10_000) this.#plainKeys.delete(this.#plainKeys.values().next().value as string);
          }
        }
      }
      // After refused entities the plain card gets a key of its own: nothing was created under the others.
      const plainUuid = this.#plainKeys.has(request.idempotencyKey) ? toFeishuUuid(`${request.idempotencyKey}~plain`) : uuid;
      const answer = await this.#post(target, JSON.stringify(card), plainUuid, request.replyTo ?? editClosed, request.replyTo === undefined);
      const messageId = answer.data?.message_id;
      if (!messageId) throw new FeishuApiError(200, -1, 'send answered without data.message_id');
      const threadId = answer.data?.thread_id;
      return { id: messageId, extra: { chatId: answer.data?.chat_id, ...(threadId && { threadId }) } };
    });
    if (editClosed && this.#editClosed.delete(editClosed.id)) await this.#recall(editClosed);
    if (this.#reaction && !request.replyTo) {
      if (request.replaces) this.#reaction.replaced(ref.id, request.replaces.id);
      if (request.final) await this.#reaction.ended(ref.id, request.extraCalls);
      else await this.#reaction.started(ref.id, request.extraCalls);
    }
    return ref;
  }

  /**
   * Recalls a card Feishu no longer lets the bot edit, now that the fresh card replying to it exists: it
   * would stay "running" above the final. Feishu recalls a bot's own message only within the tenant's
   * recall window (default 24 hours, https://open.feishu.cn/document/server-docs/im-v1/message/delete),
   * so a card past the 14-day edit window is usually refused (230009); the fresh card then still names
   * it as the message it replies to. A refusal or a failure is dropped: the fresh card is what counts.
   */
  async #recall(message: MessageRef): Promise<void> {
    try {
      this.#check(await FEISHU_API_ROUTES.recallMessage.call(this.#client, { messageId: message.id }));
    } catch {
      // (decoration: the fresh card is delivered either way)
    }
  }

  /** Registers the core's listener for the CardKit downgrade notice. */
  onNotice(listener: (notice: TransportNotice) => void): void {
    this.#noticeListeners.push(listener);
  }

  /** CardKit's create lacks its scope: plain interactive cards for the rest of the process, said once. */
  #downgrade(scope: string | undefined): void {
    if (this.#cardkitScopeMissing) return;
    this.#cardkitScopeMissing = true;
    const named = scope ?? 'cardkit:card:write';
    const notice: TransportNotice = {
      kind: 'downgraded',
      scope: named,
      message: `CardKit refused: the app lacks permission scope ${named} (code 99991672); cards go out as plain interactive card messages (mode 'message', no typewriter answer) for the rest of the process. Grant the scope and restart for CardKit.`,
    };
    for (const listener of this.#noticeListeners) listener(notice);
  }

  /** Updates one card: a CardKit entity (`mode: 'cardkit'`) or a patched message. */
  async #update(request: UpdateRequest<FeishuCard>): Promise<void> {
    await this.#withImages(request, async (card) => {
      this.#guard(card);
      if (this.#cardkit && isCardKitMessage(request.message)) {
        try {
          return await this.#cardkit.update(request.message, card, request.final);
        } catch (error) {
          // The CardKit scope was taken away mid-run: plain cards from now on, and this card is
          // given up (`gone`) so the core sends it again as one.
          const missing = missingScopeOf(error);
          if (!missing) throw error;
          this.#downgrade(missing.scope);
          throw new FeishuLocalError(`card entity of ${request.message.id} can no longer be updated: ${classifyFeishuError(error).detail}`, 'gone');
        }
      }
      try {
        this.#check(await FEISHU_API_ROUTES.patchMessage.call(this.#client, { messageId: request.message.id, content: JSON.stringify(card) }));
      } catch (error) {
        if (feishuCodeOf(error) === EDIT_WINDOW_CLOSED) {
          this.#editClosed.add(request.message.id);
          if (this.#editClosed.size > 10_000) this.#editClosed.delete(this.#editClosed.values().next().value as string);
        }
        throw error;
      }
    });
    if (request.final) await this.#reaction?.ended(request.message.id, request.extraCalls);
  }

  /**
   * Runs `call` with the card's images uploaded and in place. When Feishu refuses the card for an
   * image key (230099 / 200570), those images become text and the call goes once more (drawn from
   * the budget as a `resend`), so a card never stays stuck on an update Feishu rejects.
   */
  async #withImages<T>(request: { payload: FeishuCard; images?: readonly CardImage[]; extraCalls?: ExtraCalls }, call: (card: FeishuCard) => Promise<T>): Promise<T> {
    const prepared = await this.#images.prepare(request.payload, request.images, request.extraCalls);
    try {
      return await call(prepared.card);
    } catch (error) {
      if (prepared.imageKeys.length === 0 || !isInvalidImageKeyError(error)) throw error;
      this.#images.refuse(prepared.imageKeys);
      await request.extraCalls?.acquire('resend');
      return call((await this.#images.prepare(request.payload, request.images, request.extraCalls)).card);
    }
  }

  /**
   * Sends `content` as a new message or a reply (to `replyTo`, or to the configured parent, falling back to
   * the chat when it is gone). `replyOptional`: the reply only names an older message (a fresh final after
   * 230031); when that message is gone too (recalled 230011, deleted 231003), the content goes where a
   * message without `replyTo` goes.
   */
  async #post(target: ResolvedTarget, content: string, uuid: string, replyTo: MessageRef | undefined, replyOptional = false): Promise<FeishuAnswer> {
    let answer: FeishuAnswer;
    if (replyTo) {
      try {
        return await this.#reply(replyTo.id, content, uuid, target.replyInThread);
      } catch (error) {
        if (!replyOptional || !this.#parentGone(error)) throw error;
      }
    }
    if (target.replyToMessageId) {
      try {
        answer = await this.#reply(target.replyToMessageId, content, uuid, target.replyInThread);
      } catch (error) {
        // The message we reply to is gone: post into the chat instead, if we know it.
        if (!this.#parentGone(error)) throw error;
        if (!target.receiveId) throw new FeishuLocalError(`cannot reply to ${target.replyToMessageId}: ${classifyFeishuError(error).detail}`);
        answer = await this.#create(target.receiveIdType, target.receiveId, content, uuid);
      }
    } else {
      if (!target.receiveId) throw new FeishuLocalError('no receiver: set receiveId in the feishu config or pass a target to open()');
      answer = await this.#create(target.receiveIdType, target.receiveId, content, uuid);
    }
    return answer;
  }

  /**
   * A text message replying to the card (`im.v1.message.reply`, `uuid` = the idempotency key), with
   * `<at user_id="…">` for the mention, which notifies that person
   * (https://open.larkoffice.com/document/server-docs/im-v1/message-content-description/create_json#text).
   */
  /**
   * Uploads a file the agent produced (`im.v1.file.create`) and sends it as a file message: a reply
   * to the card, or into the card's chat before the card is sent. Read only inside `imageRoots`.
   * @throws Error naming why (outside the roots, empty, over 30 MB) or the platform's refusal.
   */
  async attachFile(request: AttachFileRequest<FeishuTarget | string>): Promise<AttachedFile> {
    const bytes = await readAttachmentFile(request.path, { maxBytes: FEISHU_MAX_FILE_BYTES, roots: this.#config.imageRoots ?? [] });
    const uploaded = await FEISHU_API_ROUTES.uploadFile.call(this.#client, { file: bytes, fileName: request.name });
    const fileKey = uploaded.data?.file_key;
    if (!fileKey) throw new FeishuApiError(200, -1, 'file upload answered without data.file_key');
    const content = JSON.stringify({ file_key: fileKey });
    const uuid = toFeishuUuid(request.idempotencyKey);
    const target = this.#target(request.target);
    let answer: FeishuAnswer;
    if (request.message) {
      answer = await FEISHU_API_ROUTES.replyMessage.call(this.#client, { messageId: request.message.id, content, uuid, replyInThread: target.replyInThread, msgType: 'file' });
    } else {
      if (!target.receiveId) throw new FeishuLocalError('no receiver for the file: the card was not sent and no receiveId is set');
      answer = await FEISHU_API_ROUTES.createMessage.call(this.#client, { receiveIdType: target.receiveIdType, receiveId: target.receiveId, content, uuid, msgType: 'file' });
    }
    this.#check(answer);
    return {};
  }

  /**
   * Messages in the card's chat after the card (`im.v1.message.list`, newest first, up to 50),
   * leaving out the card's own replies (continuation parts, files, pings). More than 50 newer
   * messages without reaching the card: `atMost`.
   * @throws FeishuLocalError when the card's chat is unknown; the platform's refusal as it comes.
   */
  async messagesAfter(request: MessagesAfterRequest<FeishuTarget | string>): Promise<number> {
    const chatId = request.message.extra?.chatId;
    if (typeof chatId !== 'string' || chatId === '') throw new FeishuLocalError('the card\'s chat is unknown');
    const answer = await FEISHU_API_ROUTES.listMessages.call(this.#client, { chatId, pageSize: 50 });
    this.#check(answer);
    let after = 0;
    for (const item of answer.data?.items ?? []) {
      if (item.message_id === request.message.id) return Math.min(after, request.atMost);
      if (item.parent_id !== request.message.id) after += 1;
    }
    return request.atMost;
  }

  async reply(request: ReplyRequest<FeishuTarget | string>): Promise<MessageRef> {
    const mention = request.mention ? `<at user_id="${request.mention.id.replace(/["<>]/g, '')}">${escapeText(request.mention.name ?? '')}</at> ` : '';
    const content = JSON.stringify({ text: `${mention}${request.text}` });
    const answer = await FEISHU_API_ROUTES.replyMessage.call(this.#client, {
      messageId: request.message.id,
      content,
      uuid: toFeishuUuid(request.idempotencyKey),
      replyInThread: this.#target(request.target).replyInThread,
      msgType: 'text',
    });
    this.#check(answer);
    const messageId = answer.data?.message_id;
    if (!messageId) throw new FeishuApiError(200, -1, 'reply answered without data.message_id');
    return { id: messageId };
  }

  /** Drops the cached tenant_access_token; the SDK fetches a new one on the next call. */
  async refreshAuth(): Promise<void> {
    this.#tokens.clear();
  }

  classify(error: unknown): CallFailure {
    return classifyFeishuError(error);
  }

  /**
   * The target with the config's defaults; a run's triggering message (`OpenCardOptions.replyTo`)
   * wins over the target's and the config's `replyToMessageId` / `replyInThread`.
   */
  #target(target: FeishuTarget | string | undefined, trigger?: ReplyToMessage): ResolvedTarget {
    const given: FeishuTarget = typeof target === 'string' ? { receiveId: target } : (target ?? {});
    const resolved = {
      receiveIdType: given.receiveIdType ?? this.#config.receiveIdType,
      receiveId: given.receiveId ?? this.#config.receiveId,
      replyToMessageId: given.replyToMessageId ?? (given.receiveId ? undefined : this.#config.replyToMessageId),
      replyInThread: given.replyInThread ?? this.#config.replyInThread,
    };
    return trigger ? { ...resolved, replyToMessageId: trigger.messageId, replyInThread: trigger.inThread ?? false } : resolved;
  }

  #guard(card: FeishuCard): void {
    const { problems } = inspectCard(card, this.#limits);
    if (problems.length > 0) throw new FeishuLocalError(`card not sent, it would be refused: ${problems.join('; ')}`);
  }

  #check(answer: FeishuAnswer): void {
    if (answer && typeof answer.code === 'number' && answer.code !== 0) throw new FeishuApiError(200, answer.code, answer.msg ?? '');
  }

  #parentGone(error: unknown): boolean {
    const failure = classifyFeishuError(error);
    return failure.kind === 'gone' || /code 230001/.test(failure.detail);
  }

  /** Sends a new message; a receiver that cannot be reached is named in the error (`target`). */
  async #create(receiveIdType: ReceiveIdType, receiveId: string, content: string, uuid: string): Promise<FeishuAnswer> {
    try {
      const answer = await FEISHU_API_ROUTES.createMessage.call(this.#client, { receiveIdType, receiveId, content, uuid });
      this.#check(answer);
      return answer;
    } catch (error) {
      const failure = classifyFeishuError(error);
      if (failure.kind === 'target') throw new FeishuLocalError(`feishu cannot reach ${receiveIdType} ${receiveId}: ${failure.detail}`, 'target');
      throw error;
    }
  }

  async #reply(messageId: string, content: string, uuid: string, replyInThread: boolean): Promise<FeishuAnswer> {
    const answer = await FEISHU_API_ROUTES.replyMessage.call(this.#client, { messageId, content, uuid, replyInThread });
    this.#check(answer);
    return answer;
  }
}
