/** Sizes the renderer and the guard keep to. Characters are code points unless named. */
export interface TeamsLimits {
  /**
   * Largest activity sent, as UTF-16 bytes (two per code unit) of its JSON. The bot message limit is
   * "100 KB … recommended … within 80 KB" on the current page and 40 KB (UTF-16) on older ones
   * (https://learn.microsoft.com/microsoftteams/platform/bots/how-to/format-your-bot-messages): kept under
   * the stricter 40 KB with room to spare.
   */
  readonly maxActivityBytes: number;
  /** Answer characters in the card itself; the rest continues in reply messages. */
  readonly cardAnswerChars: number;
  /** Answer characters of one continuation message. */
  readonly partAnswerChars: number;
  /** Most continuation messages of one card (the rest is cut with a notice). */
  readonly maxParts: number;
  /** Longest informative stream update: "must not be more than 1 kb or 1000 characters" (https://learn.microsoft.com/microsoftteams/platform/bots/streaming-ux). */
  readonly maxInformativeChars: number;
}

/** The defaults (see {@link TeamsLimits}). */
export const TEAMS_LIMITS: TeamsLimits = {
  maxActivityBytes: 38_000,
  cardAnswerChars: 6000,
  partAnswerChars: 8000,
  maxParts: 20,
  maxInformativeChars: 1000,
};
