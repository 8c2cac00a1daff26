import type { MessageRef } from '../message-types.js';

/** How long after the request timeout the answer of a send is still awaited (ms). */
export const LATE_SEND_ANSWER_MS = 60_000;

/** How many sends are remembered (oldest forgotten first). */
const REMEMBERED = 10_000;

/**
 * The messages a transport's sends created, by idempotency key, for a platform whose send takes no
 * idempotency key and whose bot cannot look a message up by one (Telegram's `sendMessage`, the Teams
 * Bot Connector's send to conversation): a send whose answer did not come in time may have made a
 * message all the same. Keep listening to it {@link LATE_SEND_ANSWER_MS} longer ({@link awaitLateAnswer}):
 * - its answer comes before the core's retry: the retry answers that message, no second one is sent;
 * - it comes after a retry made another message: that one is the card's, the late one is deleted
 *   (`deleteOrphan`);
 * - two answers race (the retry's comes after the late one was registered): the first registered
 *   wins and the other is deleted.
 * An answer that never comes (the connection died after the platform applied the send) leaves one
 * duplicate message in the chat: the limit to document.
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

/** What to do with an answer that comes after the caller was told the call timed out. */
export interface LateAnswer<T> {
  /** How long after the timeout the answer is still awaited, ms. */
  readonly windowMs: number;
  /** The call succeeded after all (never called for a late error). */
  onAnswer(result: T): void;
}

/**
 * `pending` (a request kept open `timeoutMs + late.windowMs`), as a call that fails with
 * `timeoutError()` after `timeoutMs`; its success after that goes to `late.onAnswer`, a late
 * failure is dropped.
 */
export function awaitLateAnswer<T>(pending: Promise<T>, timeoutMs: number, timeoutError: () => Error, late: LateAnswer<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      reject(timeoutError());
    }, timeoutMs);
    pending.then(
      (result) => {
        clearTimeout(timer);
        if (timedOut) late.onAnswer(result);
        else resolve(result);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!timedOut) reject(error);
      },
    );
  });
}
