import type { MessageRef } from '../../plugin/contract.js';

/** Delivery state of one continuation part (part 2..n of a card). */
class PartState {
  message: MessageRef | undefined;
  acceptedKey: string | undefined;
  failures = 0;
  renewals = 0;
  givenUp = false;
  sendUncertain = false;
}

/**
 * The continuation parts of one card message: follow-up messages, each replying to the main
 * message, each with its own idempotency key and its own last accepted render. Reset when the main
 * message is replaced (the parts of the old message are left as they are).
 */
export class ContinuationParts {
  private parts: PartState[] = [];
  /** Set once a final part was given up: how many leading parts the chat keeps; the rest are undeliverable. */
  private kept: number | undefined;

  constructor(private readonly baseKey: () => string) {}

  /** Forgets every part (a new main message gets new parts). */
  reset(): void {
    this.parts = [];
    this.kept = undefined;
  }

  /**
   * Undefined while no part was given up. Once one was: how many parts (from part 2, in order) the
   * chat shows as delivered and not given up — the final keeps only those, and every later part is
   * undeliverable. Only shrinks (a kept part given up later shortens it again).
   */
  keptParts(): number | undefined {
    if (this.kept === undefined && !this.parts.some((part) => part.givenUp)) return undefined;
    let leading = 0;
    while (leading < this.parts.length && this.parts[leading]!.acceptedKey !== undefined && !this.parts[leading]!.givenUp) leading += 1;
    this.kept = Math.min(this.kept ?? leading, leading);
    return this.kept;
  }

  /** Index (0 = part 2) of the first part whose render `keys[i]` was not accepted yet and not given up. */
  nextPending(keys: readonly string[]): number | undefined {
    for (let index = 0; index < keys.length; index += 1) {
      const part = this.parts[index];
      if (!part) return index;
      if (!part.givenUp && part.acceptedKey !== keys[index]) return index;
    }
    return undefined;
  }

  /** How many of `keys` are accepted as they are now (once parts were given up: the parts kept). */
  deliveredCount(keys: readonly string[]): number {
    if (this.kept !== undefined) return Math.min(this.kept, keys.length);
    let count = 0;
    for (const [index, key] of keys.entries()) if (this.parts[index]?.acceptedKey === key) count += 1;
    return count;
  }

  /**
   * Numbers (from 2, as the chat shows them) of the parts of `keys` not accepted as they are; once
   * parts were given up, every part after those kept (see {@link keptParts}).
   */
  missingParts(keys: readonly string[]): number[] {
    if (this.kept !== undefined) return keys.flatMap((_, index) => (index < this.kept! ? [] : [index + 2]));
    return keys.flatMap((key, index) => (this.parts[index]?.acceptedKey === key ? [] : [index + 2]));
  }

  /** The message of part `index`, once sent. */
  message(index: number): MessageRef | undefined {
    return this.parts[index]?.message;
  }

  /** Messages of the parts sent so far, by index. */
  messages(): (MessageRef | undefined)[] {
    return this.parts.map((part) => part.message);
  }

  /** Idempotency key of part `index`: `${cardKey}-part${n}` (n from 2), with `-r${k}` after the k-th replacement. */
  idempotencyKey(index: number): string {
    const renewals = this.parts[index]?.renewals ?? 0;
    return `${this.baseKey()}-part${index + 2}${renewals > 0 ? `-r${renewals}` : ''}`;
  }

  /**
   * Part `index` was sent as `message`. Returns false when an earlier send of it failed without a
   * clear answer: the platform may have kept that try's content, so it must be updated once more.
   */
  sent(index: number, message: MessageRef): boolean {
    const part = this.part(index);
    part.message = message;
    const certain = !part.sendUncertain;
    part.sendUncertain = false;
    return certain;
  }

  /** A send of part `index` failed without a clear answer: the platform may have created it. */
  sendMayHaveSucceeded(index: number): void {
    const part = this.part(index);
    if (!part.message) part.sendUncertain = true;
  }

  /** The platform accepted render `key` for part `index`. */
  accepted(index: number, key: string): void {
    const part = this.part(index);
    part.acceptedKey = key;
    part.failures = 0;
  }

  /** Consecutive failed calls of part `index` since its last accepted render. */
  failures(index: number): number {
    return this.parts[index]?.failures ?? 0;
  }

  /** Counts a failed call of part `index`; returns its consecutive failures. */
  failed(index: number): number {
    const part = this.part(index);
    part.failures += 1;
    return part.failures;
  }

  /** The message of part `index` is gone: the next call sends a new one under a new key. */
  replace(index: number): void {
    const part = this.part(index);
    part.message = undefined;
    part.acceptedKey = undefined;
    part.sendUncertain = false;
    part.renewals += 1;
  }

  /** Part `index` is not tried again. */
  giveUp(index: number): void {
    this.part(index).givenUp = true;
  }

  /** Clears every part's failure count (the final gets a full set of tries). */
  resetFailures(): void {
    for (const part of this.parts) part.failures = 0;
  }

  private part(index: number): PartState {
    for (let i = this.parts.length; i <= index; i += 1) this.parts.push(new PartState());
    return this.parts[index]!;
  }
}
