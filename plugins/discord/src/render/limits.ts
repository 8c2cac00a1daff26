/** Discord limits the renderer and guards keep (https://discord.com/developers/docs/resources/message#embed-object-embed-limits). */
export interface DiscordLimits {
  /** `content`: 2000 characters. */
  readonly maxContentChars: number;
  /** Embed title 256, description 4096, footer 2048; all embeds together 6000. */
  readonly maxTitleChars: number;
  readonly maxDescriptionChars: number;
  readonly maxFooterChars: number;
  readonly maxEmbedTotalChars: number;
  /** 5 action rows of 5 buttons; label 80, `custom_id` 100 characters (https://discord.com/developers/docs/components/reference). */
  readonly maxRows: number;
  readonly maxButtonsPerRow: number;
  readonly maxLabelChars: number;
  readonly maxCustomIdChars: number;
  /** Answer characters (markdown) in the card's embed; the rest continues in follow-up messages. */
  readonly cardAnswerChars: number;
  /** Answer characters of one follow-up message's embed. */
  readonly partAnswerChars: number;
  /** Follow-up messages at most; what does not fit is left out with a notice. */
  readonly maxParts: number;
}

/** The documented limits, with room for the card's other lines. */
export const DISCORD_LIMITS: DiscordLimits = {
  maxContentChars: 2000,
  maxTitleChars: 256,
  maxDescriptionChars: 4096,
  maxFooterChars: 2048,
  maxEmbedTotalChars: 6000,
  maxRows: 5,
  maxButtonsPerRow: 5,
  maxLabelChars: 80,
  maxCustomIdChars: 100,
  cardAnswerChars: 2000,
  partAnswerChars: 3900,
  maxParts: 12,
};
