import { createHash } from 'node:crypto';
import { readAttachmentFile, type AttachedFile, type AttachFileRequest, type CallFailure, type CardTransport, type MessageRef, type MessagesAfterRequest, type ReplyRequest, type SendRequest, type UpdateRequest } from '@progresscard/core/plugin';
import { discordMessageProblems } from '../render/guards.js';
import { DISCORD_LIMITS, type DiscordLimits } from '../render/limits.js';
import { escapeMarkdown } from '../render/markdown.js';
import type { DiscordMessage } from '../render/payload.js';
import { DiscordLocalError, classifyDiscordError } from './classify.js';
import { DISCORD_MAX_FILE_BYTES, DISCORD_ROUTES, callDiscord, type DiscordEndpoint } from './routes.js';

/** Where a card goes: a channel (or thread) id, or the configured channel when left out. */
export interface DiscordTarget {
  readonly channelId?: string;
}

/**
 * Posts and edits cards over the REST API: create a message (a continuation part or a card opened
 * with `replyTo` as a reply, `message_reference`), edit it (`PATCH`, content, embeds and
 * components replaced). A create carries `nonce` = the idempotency key with `enforce_nonce`, so a
 * retried send within Discord's nonce window answers the message already created
 * (https://discord.com/developers/docs/resources/message#create-message); sends that succeeded are
 * also remembered here.
 */
export class DiscordTransport implements CardTransport<DiscordMessage, DiscordTarget | string> {
  readonly #endpoint: DiscordEndpoint;
  readonly #channelId: string;
  readonly #limits: DiscordLimits;
  readonly #sent = new Map<string, MessageRef>();
  readonly #fileRoots: readonly string[];

  /** `options.fileRoots`: where `attachFile` may read (default none: no file is read). */
  constructor(endpoint: DiscordEndpoint, channelId: string, options: { limits?: DiscordLimits; fileRoots?: readonly string[] } = {}) {
    this.#endpoint = endpoint;
    this.#channelId = channelId;
    this.#limits = options.limits ?? DISCORD_LIMITS;
    this.#fileRoots = options.fileRoots ?? [];
  }

  async send(request: SendRequest<DiscordMessage, DiscordTarget | string>): Promise<MessageRef> {
    const known = this.#sent.get(request.idempotencyKey);
    if (known) return known;
    this.#guard(request.payload);
    const fromReply = request.replyTo?.extra?.channelId;
    const channel = typeof fromReply === 'string' ? fromReply : typeof request.target === 'string' ? request.target : (request.target?.channelId ?? this.#channelId);
    const replyTo = request.replyTo?.id ?? request.replyToMessage?.messageId;
    const message = await callDiscord(this.#endpoint, DISCORD_ROUTES.createMessage(channel), {
      ...body(request.payload),
      nonce: nonceOf(request.idempotencyKey),
      enforce_nonce: true,
      ...(replyTo ? { message_reference: { message_id: replyTo, fail_if_not_exists: false } } : {}),
    });
    const ref: MessageRef = { id: message.id, extra: { channelId: message.channel_id ?? channel } };
    this.#sent.set(request.idempotencyKey, ref);
    if (this.#sent.size > 10_000) this.#sent.delete(this.#sent.keys().next().value as string);
    return ref;
  }

  async update(request: UpdateRequest<DiscordMessage>): Promise<void> {
    this.#guard(request.payload);
    const known = request.message.extra?.channelId;
    const channel = typeof known === 'string' ? known : this.#channelId;
    await callDiscord(this.#endpoint, DISCORD_ROUTES.editMessage(channel, request.message.id), body(request.payload));
  }

  /** The completion ping: a reply to the card mentioning the requester (`<@id>`, allowed for that user only). */
  async reply(request: ReplyRequest<DiscordTarget | string>): Promise<MessageRef> {
    const known = this.#sent.get(request.idempotencyKey);
    if (known) return known;
    const user = request.mention && /^\d+$/.test(request.mention.id) ? request.mention.id : undefined;
    const replyChannel = request.message.extra?.channelId;
    const channel = typeof replyChannel === 'string' ? replyChannel : this.#channelId;
    const message = await callDiscord(this.#endpoint, DISCORD_ROUTES.createMessage(channel), {
      content: `${user ? `<@${user}> ` : ''}${escapeMarkdown(request.text)}`.slice(0, this.#limits.maxContentChars),
      allowed_mentions: { parse: [], users: user ? [user] : [] },
      message_reference: { message_id: request.message.id, fail_if_not_exists: false },
      nonce: nonceOf(request.idempotencyKey),
      enforce_nonce: true,
    });
    const ref: MessageRef = { id: message.id, extra: { channelId: channel } };
    this.#sent.set(request.idempotencyKey, ref);
    return ref;
  }

  /**
   * Sends a file the agent produced as a message with one attachment (`multipart/form-data`,
   * `payload_json` + `files[0]`), a reply to the card once it is sent, else into the card's channel;
   * `nonce` = the idempotency key with `enforce_nonce`, so a retry posts it once. Read only inside
   * `fileRoots`, at most 10 MiB (Discord's default per-file limit). Answers the attachment's URL.
   * @throws Error naming why (no roots, outside them, empty, over 10 MiB) or Discord's refusal
   *   (40005 Request entity too large on a server with a lower limit).
   */
  async attachFile(request: AttachFileRequest<DiscordTarget | string>): Promise<AttachedFile> {
    if (this.#fileRoots.length === 0) throw new DiscordLocalError('no folder is allowed for uploads (fileRoots not set)');
    const bytes = await readAttachmentFile(request.path, { maxBytes: DISCORD_MAX_FILE_BYTES, roots: this.#fileRoots });
    const fromCard = request.message?.extra?.channelId;
    const channel = typeof fromCard === 'string' ? fromCard : typeof request.target === 'string' ? request.target : (request.target?.channelId ?? this.#channelId);
    const message = await callDiscord(
      this.#endpoint,
      DISCORD_ROUTES.createMessage(channel),
      {
        attachments: [{ id: 0, filename: request.name }],
        nonce: nonceOf(request.idempotencyKey),
        enforce_nonce: true,
        ...(request.message ? { message_reference: { message_id: request.message.id, fail_if_not_exists: false } } : {}),
      },
      { name: request.name, bytes },
    );
    const url = message.attachments?.[0]?.url;
    return url ? { url } : {};
  }

  /**
   * Messages in the card's channel after the card (GET messages `after` the card, up to 100; needs
   * READ_MESSAGE_HISTORY), leaving out the bot's own replies to the card (continuation parts,
   * files, pings). More than 100 newer messages: `atMost`.
   */
  async messagesAfter(request: MessagesAfterRequest<DiscordTarget | string>): Promise<number> {
    const known = request.message.extra?.channelId;
    const channel = typeof known === 'string' ? known : typeof request.target === 'string' ? request.target : (request.target?.channelId ?? this.#channelId);
    const messages = await callDiscord(this.#endpoint, DISCORD_ROUTES.listMessagesAfter(channel, request.message.id, 100), undefined);
    const after = messages.filter((m) => !(m.author?.bot && m.message_reference?.message_id === request.message.id)).length;
    return Math.min(request.atMost, after);
  }

  classify(error: unknown): CallFailure {
    return classifyDiscordError(error);
  }

  #guard(message: DiscordMessage): void {
    const problems = discordMessageProblems(message, this.#limits);
    if (problems.length > 0) throw new DiscordLocalError(`message not sent, Discord would refuse it: ${problems.join('; ')}`);
  }
}

/** The message fields of a payload; embeds and components always given, so an edit replaces them. */
function body(payload: DiscordMessage) {
  return { content: payload.content ?? '', embeds: [...(payload.embeds ?? [])], components: [...(payload.components ?? [])] };
}

/** A `nonce` (at most 25 characters) from an idempotency key: a digest, so two keys never share one. */
function nonceOf(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 25);
}
