import type { MessageRef } from '@progresscard/core/plugin';

/** How long after the request timeout the answer of a send is still awaited (ms). */
export const LATE_SEND_ANSWER_MS = 60_000;

/** How many sends are remembered (oldest forgotten first). */
const REMEMBERED = 10_000;

/**
 * The messages the transport's sends created, by idempotency key, for a platform without one:
 * `sendMessage` takes no idempotency key (asked for in https://github.com/tdlib/telegram-bot-api/issues/126)
 * and a bot cannot list a chat's messages, so a send whose answer did not come in time may have
 * made a message the bot cannot look up. Its answer is awaited {@link LATE_SEND_ANSWER_MS} longer:
 * - it comes before the core's retry: the retry answers that message, no second one is sent;
 * - it comes after a retry made another message: that one is the card's, the late one is deleted
 *   (a bot may delete its own messages up to 48 hours old, https://core.telegram.org/bots/api#deletemessage);
 * - two answers race (the retry's comes after the late one was registered): the first registered
 *   wins and the other is deleted.
 * An answer that never comes (the connection died after Telegram applied the send) leaves one
 * duplicate message in the chat: the documented limit (plugin README, "Lost answers").
 */
export class SentMessages {
  readonly #byKey = new Map<string, MessageRef>();

  /** @param deleteOrphan removes a message that lost the race; never rejects. */
  constructor(private readonly deleteOrphan: (message: MessageRef) => Promise<void>) {}

  /** The message a send under `key` made, when known. */
  known(key: string): MessageRef | undefined {
    return this.#byKey.get(key);
  }

  /** The send under `key` was answered in time with `message`: the message the card uses. */
  answered(key: string, message: MessageRef): MessageRef {
    const first = this.#byKey.get(key);
    if (first && first.id !== message.id) {
      void this.deleteOrphan(message);
      return first;
    }
    this.#remember(key, message);
    return message;
  }

  /** A send under `key` the caller was told timed out was applied after all, as `message`. */
  lateAnswer(key: string, message: MessageRef): void {
    const card = this.#byKey.get(key);
    if (card === undefined) this.#remember(key, message);
    else if (card.id !== message.id) void this.deleteOrphan(message);
  }

  #remember(key: string, message: MessageRef): void {
    this.#byKey.set(key, message);
    if (this.#byKey.size > REMEMBERED) this.#byKey.delete(this.#byKey.keys().next().value as string);
  }
}
