import type * as lark from '@larksuiteoapi/node-sdk';
import type { ExtraCalls } from '@progresscard/core/plugin';
import { FEISHU_API_ROUTES } from './routes.js';

/**
 * The opt-in "working" reaction: an emoji on the bot's OWN card message while the run goes on
 * (never on the user's message: a reaction there notifies them every turn), removed once the card
 * is final, from every message of the card: the final may land on a fresh message that replaced a
 * recalled one or one refusing updates (230031 edit window), and the old one must not keep the
 * reaction. Each add and remove is one call drawn from the channel's budget. A reaction is
 * decoration: a failed add or remove (a recalled message refuses it) is dropped without failing the card.
 */
export class WorkingReaction {
  /** Reaction id per card message id, while the reaction is on. */
  readonly #on = new Map<string, string>();
  /** Earlier main messages of a card, by the id of the message that replaced them. */
  readonly #earlier = new Map<string, readonly string[]>();

  constructor(
    private readonly client: lark.Client,
    private readonly emojiType: string,
  ) {}

  /** `messageId` replaces `earlierId` as the card's main message: the final removes the reaction of both. */
  replaced(messageId: string, earlierId: string): void {
    if (messageId === earlierId) return;
    const chain = [earlierId, ...(this.#earlier.get(earlierId) ?? [])];
    this.#earlier.delete(earlierId);
    this.#earlier.set(messageId, chain);
  }

  /** Adds the reaction to a newly sent card message (once per message). Never rejects. */
  async started(messageId: string, extraCalls: ExtraCalls | undefined): Promise<void> {
    if (this.#on.has(messageId)) return;
    try {
      await extraCalls?.acquire('reaction');
      const answer = await FEISHU_API_ROUTES.addReaction.call(this.client, { messageId, emojiType: this.emojiType });
      const reactionId = answer.data?.reaction_id;
      if (answer.code === 0 && reactionId) this.#on.set(messageId, reactionId);
    } catch {
      // Decoration only: the card goes on without it.
    }
  }

  /** The card's final landed on `messageId`: removes the reaction from it and every message it replaced. Never rejects. */
  async ended(messageId: string, extraCalls: ExtraCalls | undefined): Promise<void> {
    const messages = [messageId, ...(this.#earlier.get(messageId) ?? [])];
    this.#earlier.delete(messageId);
    for (const id of messages) await this.#remove(id, extraCalls);
  }

  async #remove(messageId: string, extraCalls: ExtraCalls | undefined): Promise<void> {
    const reactionId = this.#on.get(messageId);
    if (!reactionId) return;
    this.#on.delete(messageId);
    try {
      await extraCalls?.acquire('reaction');
      await FEISHU_API_ROUTES.deleteReaction.call(this.client, { messageId, reactionId });
    } catch {
      // Decoration only (a recalled message refuses the removal).
    }
  }
}
