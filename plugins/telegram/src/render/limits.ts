/** Telegram limits the renderer and guards keep. Characters are UTF-16 code units, as Telegram counts entity offsets. */
export interface TelegramLimits {
  /** Text of a message after entities parsing: 1–4096 (https://core.telegram.org/bots/api#sendmessage). */
  readonly maxTextChars: number;
  /** `callback_data`: 1–64 bytes (https://core.telegram.org/bots/api#inlinekeyboardbutton). */
  readonly maxCallbackDataBytes: number;
  /** Answer characters (markdown source) kept in the card message of a group; the rest continues below. */
  readonly cardAnswerChars: number;
  /** Answer characters (markdown source) of one follow-up message. */
  readonly partAnswerChars: number;
  /** Follow-up messages at most; what does not fit is left out with a notice. */
  readonly maxParts: number;
}

/** The documented limits, with room for the card's other lines and the HTML markup. */
export const TELEGRAM_LIMITS: TelegramLimits = {
  maxTextChars: 4096,
  maxCallbackDataBytes: 64,
  cardAnswerChars: 2500,
  partAnswerChars: 3800,
  maxParts: 12,
};
