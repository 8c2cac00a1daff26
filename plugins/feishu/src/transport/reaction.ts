import type * as lark from '@larksuiteoapi/node-sdk';
import type { ExtraCalls } from '@progresscard/core';
import { FEISHU_API_ROUTES } from './routes.js';

/**
 * The opt-in "working" reaction: an emoji on the bot's OWN card message while the run goes on
 * (never on the user's message: a reaction there notifies them every turn), removed with the final
 * update. Each add and remove is one call drawn from the channel's budget. A reaction is decoration:
 * a failed add or remove is dropped without failing the card (the card's status says the same).
 */
export class WorkingReaction {
  /** Reaction id per card message id, while the reaction is on. */
  readonly #on = new Map<string, string>();

  constructor(
    private readonly client: lark.Client,
    private readonly emojiType: string,
  ) {}

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

  /** Removes the reaction once the card shows its final state. Never rejects. */
  async ended(messageId: string, extraCalls: ExtraCalls | undefined): Promise<void> {
    const reactionId = this.#on.get(messageId);
    if (!reactionId) return;
    this.#on.delete(messageId);
    try {
      await extraCalls?.acquire('reaction');
      await FEISHU_API_ROUTES.deleteReaction.call(this.client, { messageId, reactionId });
    } catch {
      // Decoration only.
    }
  }
}
