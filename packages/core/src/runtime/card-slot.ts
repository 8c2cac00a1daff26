import type { CardState } from '../card/card-state.js';
import type { CardDeliveryRecord, DeliverableCard } from '../delivery/card-delivery-record.js';
import type { ChannelDispatcher } from '../delivery/channel-dispatcher.js';

/**
 * One card message of a run: its state, its delivery record, and the two timers that redraw it
 * between events (the streamed-text debounce and the liveness note). Card-per-turn mode has one
 * per turn; the run's other wiring (ticker, stall watch, questions) stays with the progress card.
 */
export class CardSlot {
  readonly delivery: CardDeliveryRecord;
  private debounce: NodeJS.Timeout | undefined;
  /** Fires when the quiet period passes with no event, to show the liveness note. */
  private quiet: NodeJS.Timeout | undefined;

  /** Registers the message with `channel`; `card` tells the delivery what to draw and whom to tell. */
  constructor(
    readonly id: string,
    readonly state: CardState,
    private readonly channel: ChannelDispatcher,
    card: DeliverableCard,
  ) {
    this.delivery = channel.register(card);
  }

  /**
   * Streamed text follows the budget: while the channel has room it goes onto the card at once (the
   * card's flush queue spaces the calls by the per-card interval); under pressure, and always when
   * `alwaysBuffer` (card-per-turn mode), it is buffered until the text buffer fills or `debounceMs` passed.
   */
  releaseOrBuffer(now: number, alwaysBuffer: boolean): void {
    const since = this.state.pendingTextSince;
    if (since === undefined) return;
    if (!alwaysBuffer && this.channel.hasRoom) {
      this.clearDebounce();
      if (this.state.releaseText()) this.channel.markDirty(this.delivery, 'text');
      return;
    }
    if (this.debounce) return;
    const wait = Math.max(0, since + this.channel.settings.debounceMs - now);
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      if (this.state.releaseText()) this.channel.markDirty(this.delivery, 'text');
    }, wait);
    this.debounce.unref();
  }

  /**
   * (Re)arms the liveness timer: when the quiet period passes with no event, the card is redrawn and
   * its view (a pure function of the time since the latest event) carries the note.
   */
  scheduleQuietTimer(): void {
    this.clearQuietTimer();
    const quietMs = this.state.quietPeriod;
    if (quietMs <= 0 || this.state.isTerminal) return;
    this.quiet = setTimeout(() => {
      this.quiet = undefined;
      if (!this.state.isTerminal) this.channel.markDirty(this.delivery, 'structural');
    }, quietMs);
    this.quiet.unref();
  }

  /** The card reached its final state: no timer redraws it any more. */
  clearTimers(): void {
    this.clearDebounce();
    this.clearQuietTimer();
  }

  private clearQuietTimer(): void {
    if (this.quiet) clearTimeout(this.quiet);
    this.quiet = undefined;
  }

  private clearDebounce(): void {
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = undefined;
  }
}
