import { createHash } from 'node:crypto';

/** What a button stands for: the card, the interaction (`stop` for Stop) and the option. */
export interface ButtonTarget {
  readonly cardId: string;
  readonly interactionId: string;
  readonly optionId: string;
}

/** Most `callback_data` bytes (https://core.telegram.org/bots/api#inlinekeyboardbutton). */
const MAX_BYTES = 64;
/** Digests kept for buttons whose ids are too long to spell out. */
const MAX_REMEMBERED = 10_000;

/**
 * `callback_data` of progresscard's buttons. Ids are spelled out as `pc|<card>|<interaction>|<option>`
 * when that fits in 64 bytes; otherwise the button carries `pc#<digest>` (SHA-256 of the three ids)
 * and this registry remembers what the digest stands for (in this process: a button drawn before a
 * restart with such a digest is stale, as its card is).
 */
export class CallbackDataRegistry {
  private readonly digests = new Map<string, ButtonTarget>();

  /** The `callback_data` of a button (at most 64 bytes). Deterministic. */
  encode(target: ButtonTarget): string {
    const spelled = `pc|${target.cardId}|${target.interactionId}|${target.optionId}`;
    if (Buffer.byteLength(spelled) <= MAX_BYTES && !/\|/.test(target.cardId + target.interactionId + target.optionId)) return spelled;
    const digest = `pc#${createHash('sha256').update(`${target.cardId}\u0000${target.interactionId}\u0000${target.optionId}`).digest('base64url').slice(0, 40)}`;
    if (!this.digests.has(digest)) {
      if (this.digests.size >= MAX_REMEMBERED) this.digests.delete(this.digests.keys().next().value as string);
      this.digests.set(digest, target);
    }
    return digest;
  }

  /** What a `callback_data` stands for, or undefined when it is not one of ours (or forgotten). */
  decode(data: string): ButtonTarget | undefined {
    if (data.startsWith('pc#')) return this.digests.get(data);
    const [prefix, cardId, interactionId, optionId, ...rest] = data.split('|');
    if (prefix !== 'pc' || !cardId || !interactionId || !optionId || rest.length > 0) return undefined;
    return { cardId, interactionId, optionId };
  }
}
