import { createHash } from 'node:crypto';
import * as lark from '@larksuiteoapi/node-sdk';
import axios from 'axios';
import type { CardTransport, CallFailure, MessageRef, SendRequest, UpdateRequest } from '@progresscard/core';
import type { FeishuCard, FeishuPayload } from './card-types.js';
import { FeishuApiError, FeishuLocalError, classifyFeishuError } from './classify.js';
import type { FeishuConfig, ReceiveIdType } from './config.js';
import { FEISHU_GUARD_LIMITS, inspectCard, type GuardLimits } from './guards.js';
import { TokenCache } from './token-cache.js';

/**
 * Where a card goes. A string is a receive id of the configured `receiveIdType`; fields left out
 * come from the config.
 */
export interface FeishuTarget {
  readonly receiveIdType?: ReceiveIdType;
  readonly receiveId?: string;
  /** Send the card as a reply to this message. */
  readonly replyToMessageId?: string;
  readonly replyInThread?: boolean;
}

type SdkAnswer = { code?: number; msg?: string; data?: { message_id?: string; chat_id?: string } };

/** Feishu's `uuid` is at most 50 chars: longer idempotency keys are hashed (stable, so retries still de-duplicate). */
export function toFeishuUuid(key: string): string {
  return key.length <= 50 ? key : createHash('sha256').update(key).digest('hex').slice(0, 50);
}

const silentSdkLogger = { error() {}, warn() {}, info() {}, debug() {}, trace() {} };

/** Pause between follow-up cards, ms: sends are limited to 5/s per chat. */
const FOLLOW_UP_SPACING_MS = 250;

/**
 * Waits before retrying a follow-up card that failed, ms. Follow-ups are best effort once the main
 * card was accepted: failing the whole update instead would make the core move the final to a
 * fresh message, duplicating the main card.
 */
export const FOLLOW_UP_RETRY_DELAYS_MS: readonly number[] = [500, 1000, 2000];

/** What the transport needs besides the config. */
export interface FeishuTransportOptions {
  readonly limits?: GuardLimits;
  /**
   * A ready SDK client; by default one is built from the config with its own token cache and request
   * timeout. With a client of your own, `refreshAuth` cannot clear its token cache (it does nothing).
   */
  readonly client?: lark.Client;
}

/**
 * Sends and patches cards with the official SDK: `im.v1.message.create` / `reply` with `uuid` =
 * the idempotency key, `im.v1.message.patch`. Answers with a non-zero `code` are thrown as
 * {@link FeishuApiError}. Every card is checked against the guard limits before it leaves; a card
 * that would be refused is not sent (thrown as a `rejected` failure).
 */
export class FeishuTransport implements CardTransport<FeishuPayload, FeishuTarget | string> {
  readonly #client: lark.Client;
  readonly #tokens = new TokenCache();
  readonly #config: FeishuConfig;
  readonly #limits: GuardLimits;
  /** `messageId:part` of follow-up cards already sent. */
  readonly #followUpsSent = new Set<string>();

  constructor(config: FeishuConfig, options: FeishuTransportOptions = {}) {
    this.#config = config;
    this.#limits = options.limits ?? FEISHU_GUARD_LIMITS;
    this.#client = options.client ?? this.#buildClient(config);
  }

  #buildClient(config: FeishuConfig): lark.Client {
    const http = axios.create({ timeout: config.requestTimeoutMs });
    // Same contract as the SDK's default instance: methods resolve to the JSON body.
    http.interceptors.response.use((response) =>
      (response.config as { $return_headers?: boolean }).$return_headers ? { data: response.data, headers: response.headers } : response.data,
    );
    const domain = config.domain === 'feishu' ? lark.Domain.Feishu : config.domain === 'lark' ? lark.Domain.Lark : config.domain.replace(/\/+$/, '');
    return new lark.Client({
      appId: config.appId,
      appSecret: config.appSecret,
      appType: lark.AppType.SelfBuild,
      domain,
      cache: this.#tokens as unknown as NonNullable<ConstructorParameters<typeof lark.Client>[0]['cache']>,
      httpInstance: http as unknown as NonNullable<ConstructorParameters<typeof lark.Client>[0]['httpInstance']>,
      logger: silentSdkLogger, // the SDK would log whole axios errors, request headers included
    });
  }

  async send(request: SendRequest<FeishuPayload, FeishuTarget | string>): Promise<MessageRef> {
    this.#guard(request.payload);
    const target = this.#target(request.target);
    const content = JSON.stringify(request.payload.card);
    const uuid = toFeishuUuid(request.idempotencyKey);
    let answer: SdkAnswer;
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
    const messageId = answer.data?.message_id;
    if (!messageId) throw new FeishuApiError(200, -1, 'send answered without data.message_id');
    await this.#sendFollowUps(messageId, request.payload, target.replyInThread);
    return { id: messageId, extra: { chatId: answer.data?.chat_id } };
  }

  async update(request: UpdateRequest<FeishuPayload>): Promise<void> {
    this.#guard(request.payload);
    const answer: SdkAnswer = await this.#client.im.v1.message.patch({
      path: { message_id: request.message.id },
      data: { content: JSON.stringify(request.payload.card) },
    });
    this.#check(answer);
    await this.#sendFollowUps(request.message.id, request.payload, this.#config.replyInThread);
  }

  /** Drops the cached tenant_access_token; the SDK fetches a new one on the next call. */
  async refreshAuth(): Promise<void> {
    this.#tokens.clear();
  }

  classify(error: unknown): CallFailure {
    return classifyFeishuError(error);
  }

  #target(target: FeishuTarget | string | undefined): Required<Pick<FeishuTarget, 'receiveIdType' | 'replyInThread'>> & FeishuTarget {
    const given: FeishuTarget = typeof target === 'string' ? { receiveId: target } : (target ?? {});
    return {
      receiveIdType: given.receiveIdType ?? this.#config.receiveIdType,
      receiveId: given.receiveId ?? this.#config.receiveId,
      replyToMessageId: given.replyToMessageId ?? (given.receiveId ? undefined : this.#config.replyToMessageId),
      replyInThread: given.replyInThread ?? this.#config.replyInThread,
    };
  }

  #guard(payload: FeishuPayload): void {
    for (const card of [payload.card, ...(payload.continuation ?? [])]) {
      const { problems } = inspectCard(card, this.#limits);
      if (problems.length > 0) throw new FeishuLocalError(`card not sent, it would be refused: ${problems.join('; ')}`);
    }
  }

  #check(answer: SdkAnswer): void {
    if (answer && typeof answer.code === 'number' && answer.code !== 0) throw new FeishuApiError(200, answer.code, answer.msg ?? '');
  }

  #parentGone(error: unknown): boolean {
    const failure = classifyFeishuError(error);
    return failure.kind === 'gone' || /code 230001/.test(failure.detail);
  }

  async #create(receiveIdType: ReceiveIdType, receiveId: string, content: string, uuid: string): Promise<SdkAnswer> {
    const answer: SdkAnswer = await this.#client.im.v1.message.create({
      params: { receive_id_type: receiveIdType },
      data: { receive_id: receiveId, msg_type: 'interactive', content, uuid },
    });
    this.#check(answer);
    return answer;
  }

  async #reply(messageId: string, content: string, uuid: string, inThread: boolean): Promise<SdkAnswer> {
    const answer: SdkAnswer = await this.#client.im.v1.message.reply({
      path: { message_id: messageId },
      data: { msg_type: 'interactive', content, uuid, reply_in_thread: inThread },
    });
    this.#check(answer);
    return answer;
  }

  /** Sends a terminal card's follow-up cards once, as replies to it (uuid-keyed, so retries never double them). */
  async #sendFollowUps(messageId: string, payload: FeishuPayload, inThread: boolean): Promise<void> {
    const parts: readonly FeishuCard[] = payload.continuation ?? [];
    for (const [i, card] of parts.entries()) {
      const key = `${messageId}:${i}`;
      if (this.#followUpsSent.has(key)) continue;
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_UP_SPACING_MS));
      if (!(await this.#replyWithRetries(messageId, JSON.stringify(card), toFeishuUuid(`${messageId}-c${i + 1}`), inThread))) return;
      this.#followUpsSent.add(key);
    }
  }

  /** One follow-up with its retries (same uuid each time, so never doubled); false when it never went out. */
  async #replyWithRetries(messageId: string, content: string, uuid: string, inThread: boolean): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.#reply(messageId, content, uuid, inThread);
        return true;
      } catch (error) {
        const kind = classifyFeishuError(error).kind;
        const delay = FOLLOW_UP_RETRY_DELAYS_MS[attempt];
        if (delay === undefined || kind === 'gone' || kind === 'rejected') return false;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}
