import type { EventOf } from '../events/contract.js';
import { wellFormed } from './format/text.js';
import type { CardControls, DecidedInteraction, PendingInteraction } from './view.js';

/** Decisions a card keeps showing (the latest). */
const MAX_DECISIONS_SHOWN = 3;

/**
 * The short code of an interaction for text replies (`/approve 3F2A`): 4 hex digits from its id
 * (FNV-1a), so the same interaction always gets the same code.
 */
export function interactionCode(interactionId: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < interactionId.length; i++) {
    hash ^= interactionId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return (hash & 0xffff).toString(16).toUpperCase().padStart(4, '0');
}

/**
 * The interactive part of one card's state: the open question with controls, the decisions made,
 * whether a Stop button shows. Pure like `CardState`, which owns it.
 */
export class InteractionLedger {
  private pending: PendingInteraction | undefined;
  private readonly decided: DecidedInteraction[] = [];
  private stoppable = false;
  /** True once the card showed a control: its controls stay in the view (empty) so renderers clear them. */
  private hadControls = false;
  /** True once the channel's callbacks could not start (see `CardControls.replyByText`). */
  private replyByText = false;

  /** Records a question with controls; returns true when the card changed. */
  request(event: EventOf<'interaction.requested'>): boolean {
    if (!event.interactionId) return false;
    this.hadControls = true;
    this.pending = {
      id: event.interactionId,
      prompt: wellFormed(event.prompt),
      options: event.options ?? [],
      freeText: event.freeText === true,
      code: interactionCode(event.interactionId),
    };
    return true;
  }

  /** Records a decision; returns true when the card changed. */
  resolve(event: EventOf<'interaction.resolved'>, at: number): boolean {
    const id = event.interactionId;
    if (!id || this.decided.some((d) => d.id === id)) return false;
    const prompt = this.pending?.id === id ? this.pending.prompt : '';
    if (this.pending?.id === id) this.pending = undefined;
    const answer = wellFormed(event.text ?? event.label ?? event.optionId ?? '');
    const tone = event.timedOut ? 'timeout' : event.approved === false ? 'negative' : 'positive';
    this.decided.push({ id, prompt, answer, by: event.by ? (event.by.name || event.by.id) : undefined, tone, at });
    if (this.decided.length > MAX_DECISIONS_SHOWN) this.decided.shift();
    return true;
  }

  /** Turns the Stop button on or off; returns true when that changed. */
  setStoppable(on: boolean): boolean {
    if (this.stoppable === on) return false;
    this.stoppable = on;
    if (on) this.hadControls = true;
    return true;
  }

  /** Draws replies to type instead of buttons from now on; returns true when that changed. */
  useTextReplies(): boolean {
    if (this.replyByText) return false;
    this.replyByText = true;
    return this.hadControls;
  }

  /**
   * The controls to draw on card `cardId`: undefined on a card that never had any; empty (no
   * question, no Stop) once they are gone, e.g. after the run ended, so a renderer can clear them.
   */
  controls(cardId: string | undefined, terminal: boolean): CardControls | undefined {
    if (cardId === undefined || !this.hadControls) return undefined;
    if (terminal) return { cardId, stop: false };
    return { cardId, pending: this.pending, stop: this.stoppable, ...(this.replyByText ? { replyByText: true } : {}) };
  }

  /** Decisions shown, oldest first; undefined when none. */
  decisions(): readonly DecidedInteraction[] | undefined {
    return this.decided.length === 0 ? undefined : [...this.decided];
  }
}
