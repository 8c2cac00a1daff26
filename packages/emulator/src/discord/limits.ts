/** Discord limits the emulator enforces. Durations in ms. */
export interface DiscordLimits {
  /** Message `content`: 2000 characters (https://discord.com/developers/docs/resources/message#create-message). */
  readonly maxContentChars: number;
  /** At most 10 embeds a message (same page). */
  readonly maxEmbeds: number;
  /** Embed limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits). */
  readonly embedTitleChars: number;
  readonly embedDescriptionChars: number;
  readonly embedFields: number;
  readonly embedFieldNameChars: number;
  readonly embedFieldValueChars: number;
  readonly embedFooterChars: number;
  /** Every title, description, field name and value, footer and author name of all embeds together. */
  readonly embedTotalChars: number;
  /** Components: 5 action rows of at most 5 buttons; label 80, `custom_id` 1–100 characters (https://discord.com/developers/docs/components/reference). */
  readonly maxActionRows: number;
  readonly maxButtonsPerRow: number;
  readonly maxButtonLabelChars: number;
  readonly maxCustomIdChars: number;
  /**
   * Per-route buckets per channel. Discord announces them in `X-RateLimit-*` headers and says
   * they must not be hard coded (https://discord.com/developers/docs/topics/rate-limits); 5 per
   * 5 s is what clients observe for message create (UNCONFIRMED). Change them at run time with
   * `setBucketLimit`.
   */
  readonly createBucket: { readonly limit: number; readonly windowMs: number };
  readonly editBucket: { readonly limit: number; readonly windowMs: number };
  /** Global: 50 requests a second per bot (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit). */
  readonly globalPerSecond: number;
  /** Age after which edits count against the old-message cap (30046): one hour. */
  readonly oldMessageAgeMs: number;
  /** Largest attachment per file, in bytes: 10 MiB by default (https://discord.com/developers/docs/reference#uploading-files); larger answers 40005. */
  readonly maxAttachmentBytes: number;
  /** Edits allowed per message once it is old, before 30046 (not documented, UNCONFIRMED). */
  readonly oldMessageEdits: number;
  /** An interaction must be answered within 3 s (https://discord.com/developers/docs/interactions/receiving-and-responding). */
  readonly interactionAnswerMs: number;
  /** Interaction tokens stay valid for follow-ups 15 minutes (same page). */
  readonly interactionTokenMs: number;
}

/** The documented (and, where marked, observed) values. */
export const DEFAULT_DISCORD_LIMITS: DiscordLimits = {
  maxContentChars: 2000,
  maxAttachmentBytes: 10 * 1024 * 1024,
  maxEmbeds: 10,
  embedTitleChars: 256,
  embedDescriptionChars: 4096,
  embedFields: 25,
  embedFieldNameChars: 256,
  embedFieldValueChars: 1024,
  embedFooterChars: 2048,
  embedTotalChars: 6000,
  maxActionRows: 5,
  maxButtonsPerRow: 5,
  maxButtonLabelChars: 80,
  maxCustomIdChars: 100,
  createBucket: { limit: 5, windowMs: 5000 },
  editBucket: { limit: 5, windowMs: 5000 },
  globalPerSecond: 50,
  oldMessageAgeMs: 3_600_000,
  oldMessageEdits: 10,
  interactionAnswerMs: 3000,
  interactionTokenMs: 900_000,
};
