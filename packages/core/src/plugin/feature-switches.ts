/** The feature switches of a channel (config ← env), as the plugin contract carries them. */
import type { FooterField, FooterStyle } from '../card/format/footer.js';
import type { Locale } from '../card/view.js';

/**
 * Completion ping: one short reply to the card when its run ends where the reader may not see it
 * (edits notify no one): after a long run, or when later messages pushed the card up the chat.
 */
export interface CompletionPingSwitch {
  /** Runs that lasted at least this long (ms) get a ping wherever the card is (`Infinity`: never by time alone). */
  readonly afterMs: number;
  /**
   * A card with at least this many messages after it in the chat when its final lands gets a ping
   * (the transport's `messagesAfter` tells; a channel without it pings by `afterMs` only). Absent:
   * the card's position is not asked.
   */
  readonly pushedUpBy?: number;
  /** Ping cancelled runs too (default false). */
  readonly onCancelled: boolean;
}

/** The switches of one channel, resolved (config ← env). */
export interface FeatureSwitches {
  /**
   * `true` (default): the card is sent at the first event and updated as the run goes.
   * `false`: nothing is sent while the run goes on; one card is sent with the final state.
   */
  readonly progressive: boolean;
  /** Footer style on the card (default `compact`). */
  readonly footerStyle: FooterStyle;
  /** Footer fields shown, in footer order (default: all the style shows). */
  readonly footerFields?: readonly FooterField[];
  /** Tool calls shown before older ones fold away (default: the plugin's own). */
  readonly toolFoldAfter?: number;
  /** `run` (default): one card per run; `turn`: a new card per round. */
  readonly cardPer: 'run' | 'turn';
  /**
   * Card language for every card of the channel, winning over the run's `open({ locale })`
   * (default: the run's, else the channel's default, see `CHANNEL_DEFAULT_LOCALES`).
   */
  readonly locale?: Locale;
  /**
   * Completion ping; absent = off. Default: on for a card that 3 later messages pushed up
   * (`DEFAULT_COMPLETION_PING`), on channels whose transport can count them.
   */
  readonly completionPing?: CompletionPingSwitch;
  /**
   * Most platform calls one card message may spend (send, updates and final); as it nears the cap
   * its tick stretches, and the final always goes out. Absent = no cap (default).
   */
  readonly runCallCap?: number;
  /** The platform's call quota per month, for `progresscard plan` / `doctor` (absent = none known). */
  readonly monthlyQuota?: number;
}
