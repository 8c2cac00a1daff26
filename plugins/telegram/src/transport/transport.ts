import { createHash } from 'node:crypto';
import { LATE_SEND_ANSWER_MS, SentMessages, readAttachmentFile, type AttachedFile, type AttachFileRequest, type CallFailure, type CardTransport, type MessageRef, type ReplyRequest, type SendRequest, type UpdateRequest } from '@progresscard/core/plugin';
import type { Message } from '@grammyjs/types';
import { telegramMessageProblems } from '../render/guards.js';
import { escapeHtml } from '../render/html.js';
import { TELEGRAM_LIMITS, type TelegramLimits } from '../render/limits.js';
import type { TelegramMessage } from '../render/payload.js';
import { TelegramLocalError, classifyTelegramError, isDraftRefused, isNotModified } from './classify.js';
import { DraftKeeper } from './draft-keeper.js';
import { TELEGRAM_MAX_DOCUMENT_BYTES, TELEGRAM_METHODS, TelegramApiError, TelegramRequestError, callTelegram, sendTelegramDocument, type TelegramEndpoint } from './routes.js';

/** Where a card goes: a chat id (and a forum topic), or the configured chat when left out. */
export interface TelegramTarget {
  readonly chatId?: number | string;
  /** A forum topic's `message_thread_id`. */
  readonly threadId?: number;
}

/** What the transport needs of the config. */
export interface TelegramTransportConfig extends TelegramEndpoint {
  readonly chatId: number | string;
  readonly threadId?: number;
  /** Stream answer parts as drafts in private chats (default true). */
  readonly drafts: boolean;
  /** Where `attachFile` may read (default none: no file is read). */
  readonly fileRoots?: readonly string[];
}

/** A private chat: a user's id is positive (https://core.telegram.org/bots/api#chat). */
export const isPrivateChat = (chatId: number | string): boolean => typeof chatId === 'number' ? chatId > 0 : /^\d+$/.test(chatId);

/** A non-zero 31-bit `draft_id` from the part's idempotency key: the same part keeps its draft. */
function draftIdOf(key: string): number {
  return (createHash('sha256').update(key).digest().readUInt32BE(0) & 0x7fffffff) || 1;
}

const DRAFT_PREFIX = 'draft:';

/**
 * Sends and edits cards over the Bot API: `sendMessage` (a continuation part as a reply to the
 * card, `reply_parameters`; in a forum topic with `message_thread_id`), `editMessageText`
 * (HTML parse mode, link previews off). In a private chat an answer part that streams is a draft
 * (`sendMessageDraft`, the same `draft_id` for the part) until it persists with `sendMessage`,
 * "a temporary 30-second preview … you must call sendMessage … to persist it"
 * (https://core.telegram.org/bots/api#sendmessagedraft); a chat that refuses drafts
 * (TEXTDRAFT_PEER_INVALID) gets ordinary messages from then on. "Message is not modified" is a
 * success. Sends are remembered by idempotency key (Telegram has none), so a repeated key answers
 * the same message; a send that timed out is still listened to, so the message it made late is the
 * retry's, or deleted as a duplicate (see {@link SentMessages}).
 */
export class TelegramTransport implements CardTransport<TelegramMessage, TelegramTarget | number | string> {
  readonly #config: TelegramTransportConfig;
  readonly #limits: TelegramLimits;
  /** Messages by idempotency key; a draft persisted as a message under `persisted:<draft ref id>`. */
  readonly #sent = new SentMessages((message) => this.#deleteOrphan(message));
  readonly #noDrafts = new Set<string>();
  /** Re-sends drafts an answer pause would let expire (Telegram drops a draft 30 s after its last update). */
  readonly #keeper = new DraftKeeper((ref, payload) => this.#sendDraft(ref, payload));

  constructor(config: TelegramTransportConfig, options: { limits?: TelegramLimits } = {}) {
    this.#config = config;
    this.#limits = options.limits ?? TELEGRAM_LIMITS;
  }

  async send(request: SendRequest<TelegramMessage, TelegramTarget | number | string>): Promise<MessageRef> {
    const key = request.idempotencyKey;
    const known = this.#sent.known(key);
    if (known) return known;
    this.#guard(request.payload);
    const { chatId, threadId } = this.#where(request.target, request.replyTo);
    const stream = request.payload.stream;
    let ref: MessageRef;
    if (stream && !stream.persist && this.#draftsIn(chatId)) {
      const draftId = draftIdOf(key);
      ref = { id: `${DRAFT_PREFIX}${chatId}:${draftId}`, extra: { chatId, ...(threadId !== undefined ? { threadId } : {}), draftId, replyTo: request.replyTo?.id } };
      const drafted = await this.#draft(ref, request.payload);
      if (!drafted) ref = await this.#post(chatId, threadId, request.payload, replyToId(request.replyTo?.id ?? request.replyToMessage?.messageId), key);
    } else {
      ref = await this.#post(chatId, threadId, request.payload, replyToId(request.replyTo?.id ?? request.replyToMessage?.messageId), key);
    }
    return this.#sent.answered(key, ref);
  }

  async update(request: UpdateRequest<TelegramMessage>): Promise<void> {
    this.#guard(request.payload);
    const { id, extra } = request.message;
    const chatId = (extra?.chatId as number | string | undefined) ?? this.#config.chatId;
    if (id.startsWith(DRAFT_PREFIX)) {
      const persistedKey = `persisted:${id}`;
      const persisted = this.#sent.known(persistedKey);
      if (persisted !== undefined) return this.#edit(chatId, Number(persisted.id), request.payload);
      const persist = request.final || request.payload.stream?.persist !== false;
      if (!persist && (await this.#draft(request.message, request.payload))) return;
      // Persisting: no refresh may show the draft again after the message.
      await this.#keeper.before(request.message);
      this.#keeper.stop(id);
      const message = await this.#post(chatId, extra?.threadId as number | undefined, request.payload, replyToId(extra?.replyTo as string | undefined), persistedKey);
      const kept = this.#sent.answered(persistedKey, message);
      // A late answer of an earlier try persisted it first: that message gets this content.
      if (kept.id !== message.id) await this.#edit(chatId, Number(kept.id), request.payload);
      return;
    }
    await this.#edit(chatId, Number(id), request.payload);
  }

  /**
   * The completion ping: a plain message replying to the card, mentioning the requester with a
   * `tg://user?id=` link, which notifies them (https://core.telegram.org/bots/api#html-style).
   */
  async reply(request: ReplyRequest<TelegramTarget | number | string>): Promise<MessageRef> {
    const mention = request.mention && /^\d+$/.test(request.mention.id) ? `<a href="tg://user?id=${request.mention.id}">${escapeHtml(request.mention.name ?? request.mention.id)}</a> ` : '';
    return this.send({ target: request.target, payload: { text: `${mention}${escapeHtml(request.text)}` }, idempotencyKey: request.idempotencyKey, replacing: false, replyTo: request.message });
  }

  /**
   * Sends a file the agent produced as a document (`sendDocument`, multipart), replying to the card
   * once it is sent (in its forum topic), else into the card's chat. Read only inside `fileRoots`,
   * at most 50 MB (the Bot API's upload limit). Telegram gives a bot no link to a message of a
   * private chat or basic group, so the card names the file without a link. Sent once per key.
   * @throws Error naming why (no roots, outside them, empty, over 50 MB) or Telegram's refusal.
   *
   * There is no `messagesAfter`: the Bot API has no method that reads a chat's history, and a bot
   * in a group with privacy mode on (the default) receives no updates for people's ordinary
   * messages (https://core.telegram.org/bots/features#privacy-mode), so it cannot tell how many
   * messages came after a card. `message_id`s rising per chat would tell only once the bot sees a
   * later id, and the only later message it sends at the final is the ping itself. A Telegram card
   * therefore gets its completion ping by run time (`afterMs`) only.
   */
  async attachFile(request: AttachFileRequest<TelegramTarget | number | string>): Promise<AttachedFile> {
    if (this.#sent.known(request.idempotencyKey)) return {};
    const roots = this.#config.fileRoots ?? [];
    if (roots.length === 0) throw new TelegramLocalError('no folder is allowed for uploads (fileRoots not set)');
    const bytes = await readAttachmentFile(request.path, { maxBytes: TELEGRAM_MAX_DOCUMENT_BYTES, roots });
    const card = request.message && !request.message.id.startsWith(DRAFT_PREFIX) ? request.message : undefined;
    const { chatId, threadId } = this.#where(request.target, request.message);
    const replyTo = replyToId(card?.id);
    const message = await sendTelegramDocument(
      this.#config,
      {
        chat_id: chatId,
        ...(threadId !== undefined ? { message_thread_id: threadId } : {}),
        ...(replyTo !== undefined ? { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } } : {}),
      },
      { name: request.name, bytes },
    );
    this.#sent.answered(request.idempotencyKey, { id: String(message.message_id), extra: { chatId } });
    return {};
  }

  classify(error: unknown): CallFailure {
    return classifyTelegramError(error);
  }

  #where(target: TelegramTarget | number | string | undefined, replyTo: MessageRef | undefined): { chatId: number | string; threadId?: number } {
    if (replyTo?.extra?.chatId !== undefined) return { chatId: replyTo.extra.chatId as number | string, threadId: replyTo.extra.threadId as number | undefined };
    if (typeof target === 'number' || typeof target === 'string') return { chatId: target, threadId: this.#config.threadId };
    return { chatId: target?.chatId ?? this.#config.chatId, threadId: target?.chatId === undefined ? (target?.threadId ?? this.#config.threadId) : target.threadId };
  }

  #draftsIn(chatId: number | string): boolean {
    return this.#config.drafts && isPrivateChat(chatId) && !this.#noDrafts.has(String(chatId));
  }

  /**
   * Shows the draft and keeps it shown until the next change (see {@link DraftKeeper}); false when
   * the chat refuses drafts (then it is sent as a message).
   */
  async #draft(ref: MessageRef, payload: TelegramMessage): Promise<boolean> {
    await this.#keeper.before(ref);
    try {
      await this.#sendDraft(ref, payload);
      this.#keeper.shown(ref, payload);
      return true;
    } catch (error) {
      if (!isDraftRefused(error)) throw error;
      this.#keeper.stop(ref.id);
      this.#noDrafts.add(String(ref.extra?.chatId));
      return false;
    }
  }

  async #sendDraft(ref: MessageRef, payload: TelegramMessage): Promise<void> {
    await callTelegram(this.#config, TELEGRAM_METHODS.sendMessageDraft, {
      chat_id: Number(ref.extra?.chatId),
      draft_id: ref.extra?.draftId as number,
      text: payload.text,
      parse_mode: 'HTML',
      ...(ref.extra?.threadId !== undefined ? { message_thread_id: ref.extra.threadId as number } : {}),
    });
  }

  /** Sends a message; when its answer comes only after the timeout, {@link SentMessages.lateAnswer} gets it under `key`. */
  async #post(chatId: number | string, threadId: number | undefined, payload: TelegramMessage, replyTo: number | undefined, key: string): Promise<MessageRef> {
    const refOf = (message: Message.TextMessage): MessageRef => ({ id: String(message.message_id), extra: { chatId: message.chat?.id ?? chatId, ...(threadId !== undefined ? { threadId } : {}) } });
    const late = { windowMs: LATE_SEND_ANSWER_MS, onAnswer: (message: Message.TextMessage) => this.#sent.lateAnswer(key, refOf(message)) };
    const message: Message.TextMessage = await callTelegram(this.#config, TELEGRAM_METHODS.sendMessage, {
      chat_id: chatId,
      text: payload.text,
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      ...(threadId !== undefined ? { message_thread_id: threadId } : {}),
      ...(replyTo !== undefined ? { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } } : {}),
      ...(payload.keyboard?.length ? { reply_markup: { inline_keyboard: payload.keyboard.map((row) => [...row]) } } : {}),
    }, late);
    return refOf(message);
  }

  /** Deletes a duplicate a late send answer revealed: retried after a flood wait or a lost answer, then left (never rejects). */
  async #deleteOrphan(message: MessageRef): Promise<void> {
    const chatId = (message.extra?.chatId as number | string | undefined) ?? this.#config.chatId;
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      try {
        await callTelegram(this.#config, TELEGRAM_METHODS.deleteMessage, { chat_id: chatId, message_id: Number(message.id) });
        return;
      } catch (error) {
        const waitS = error instanceof TelegramApiError ? error.retryAfter : error instanceof TelegramRequestError ? attempt : undefined;
        if (waitS === undefined) return;
        await new Promise((resolve) => setTimeout(resolve, waitS * 1000));
      }
    }
  }

  async #edit(chatId: number | string, messageId: number, payload: TelegramMessage): Promise<void> {
    try {
      await callTelegram(this.#config, TELEGRAM_METHODS.editMessageText, {
        chat_id: chatId,
        message_id: messageId,
        text: payload.text,
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        reply_markup: { inline_keyboard: (payload.keyboard ?? []).map((row) => [...row]) },
      });
    } catch (error) {
      // "message is not modified": the message already shows this payload.
      if (!isNotModified(error)) throw error;
    }
  }

  #guard(message: TelegramMessage): void {
    const problems = telegramMessageProblems(message, this.#limits);
    if (problems.length > 0) throw new TelegramLocalError(`message not sent, Telegram would refuse it: ${problems.join('; ')}`);
  }
}

/** A message id to reply to; ids of drafts and of other platforms are not Telegram message ids. */
function replyToId(id: string | undefined): number | undefined {
  return id !== undefined && /^\d+$/.test(id) ? Number(id) : undefined;
}
