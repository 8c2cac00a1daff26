import { DISCORD_LIMITS, type DiscordLimits } from './limits.js';
import type { DiscordMessage } from './payload.js';

const chars = (text: string | undefined) => [...(text ?? '').trim()].length;

/**
 * What Discord would refuse in a message (https://discord.com/developers/docs/resources/message#embed-object-embed-limits,
 * https://discord.com/developers/docs/components/reference): content over 2000, an embed title over
 * 256, description over 4096, footer over 2048, all embeds over 6000 characters, more than 5 rows
 * or 5 buttons a row, a label over 80 or a `custom_id` of 0 or more than 100 characters, an empty
 * message. Empty when it would pass.
 */
export function discordMessageProblems(message: DiscordMessage, limits: DiscordLimits = DISCORD_LIMITS): string[] {
  const problems: string[] = [];
  if (chars(message.content) > limits.maxContentChars) problems.push(`content is ${chars(message.content)} characters (at most ${limits.maxContentChars})`);
  let total = 0;
  for (const [i, embed] of (message.embeds ?? []).entries()) {
    if (chars(embed.title) > limits.maxTitleChars) problems.push(`embeds[${i}].title is ${chars(embed.title)} characters (at most ${limits.maxTitleChars})`);
    if (chars(embed.description) > limits.maxDescriptionChars) problems.push(`embeds[${i}].description is ${chars(embed.description)} characters (at most ${limits.maxDescriptionChars})`);
    if (chars(embed.footer?.text) > limits.maxFooterChars) problems.push(`embeds[${i}].footer is ${chars(embed.footer?.text)} characters (at most ${limits.maxFooterChars})`);
    total += chars(embed.title) + chars(embed.description) + chars(embed.footer?.text);
  }
  if (total > limits.maxEmbedTotalChars) problems.push(`embeds hold ${total} characters (at most ${limits.maxEmbedTotalChars})`);
  const rows = message.components ?? [];
  if (rows.length > limits.maxRows) problems.push(`${rows.length} action rows (at most ${limits.maxRows})`);
  for (const row of rows) {
    if (row.components.length > limits.maxButtonsPerRow) problems.push(`a row of ${row.components.length} buttons (at most ${limits.maxButtonsPerRow})`);
    for (const button of row.components) {
      if (chars(button.label) > limits.maxLabelChars) problems.push(`label "${button.label}" is over ${limits.maxLabelChars} characters`);
      if (button.custom_id.length === 0 || button.custom_id.length > limits.maxCustomIdChars) problems.push(`custom_id of "${button.label}" is ${button.custom_id.length} characters (1 to ${limits.maxCustomIdChars})`);
    }
  }
  if (chars(message.content) === 0 && (message.embeds ?? []).length === 0 && rows.length === 0) problems.push('the message is empty');
  return problems;
}
