import { createHash } from 'node:crypto';

/** What a button stands for: the card, the interaction (`stop` for Stop) and the option. */
export interface ButtonTarget {
  readonly cardId: string;
  readonly interactionId: string;
  readonly optionId: string;
}

/** Most `custom_id` characters (https://discord.com/developers/docs/components/reference#button). */
const MAX_CHARS = 100;
const MAX_REMEMBERED = 10_000;

/**
 * `custom_id` of progresscard's buttons: `pc|<card>|<interaction>|<option>` when that fits in 100
 * characters, else `pc#<digest>` remembered here (in this process).
 */
export class CustomIdRegistry {
  private readonly digests = new Map<string, ButtonTarget>();

  /** The `custom_id` of a button (at most 100 characters). Deterministic. */
  encode(target: ButtonTarget): string {
    const spelled = `pc|${target.cardId}|${target.interactionId}|${target.optionId}`;
    if (spelled.length <= MAX_CHARS && !/\|/.test(target.cardId + target.interactionId + target.optionId)) return spelled;
    const digest = `pc#${createHash('sha256').update(`${target.cardId}\u0000${target.interactionId}\u0000${target.optionId}`).digest('base64url')}`;
    if (!this.digests.has(digest)) {
      if (this.digests.size >= MAX_REMEMBERED) this.digests.delete(this.digests.keys().next().value as string);
      this.digests.set(digest, target);
    }
    return digest;
  }

  /** What a `custom_id` stands for, or undefined when it is not one of ours (or forgotten). */
  decode(customId: string): ButtonTarget | undefined {
    if (customId.startsWith('pc#')) return this.digests.get(customId);
    const [prefix, cardId, interactionId, optionId, ...rest] = customId.split('|');
    if (prefix !== 'pc' || !cardId || !interactionId || !optionId || rest.length > 0) return undefined;
    return { cardId, interactionId, optionId };
  }
}
