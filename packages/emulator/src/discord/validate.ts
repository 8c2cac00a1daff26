import { DiscordErrors, type DiscordError } from './codes.js';
import type { DiscordLimits } from './limits.js';

type Json = Record<string, unknown>;
const chars = (value: unknown) => (typeof value === 'string' ? [...value.trim()].length : 0);

/**
 * The checks Discord makes on a message body (content, embeds, components), answering 50035 with
 * the field path or 50006 for an empty message. `requireSomething`: creates need one of content,
 * embeds, components or `files` (the count of files sent with it); edits do not.
 */
export function messageBodyProblem(body: Json, limits: DiscordLimits, requireSomething: boolean, files = 0): DiscordError | undefined {
  const content = body.content;
  if (content !== undefined && content !== null && typeof content !== 'string') return DiscordErrors.invalidFormBody('content', 'BASE_TYPE_STRING', 'Must be a string.');
  if (typeof content === 'string' && [...content].length > limits.maxContentChars)
    return DiscordErrors.invalidFormBody('content', 'BASE_TYPE_MAX_LENGTH', `Must be ${limits.maxContentChars} or fewer in length.`);
  const embeds = Array.isArray(body.embeds) ? (body.embeds as Json[]) : [];
  if (embeds.length > limits.maxEmbeds) return DiscordErrors.invalidFormBody('embeds', 'BASE_TYPE_MAX_LENGTH', `Must be ${limits.maxEmbeds} or fewer in length.`);
  let total = 0;
  for (const [i, embed] of embeds.entries()) {
    const at = `embeds.${i}`;
    if (chars(embed.title) > limits.embedTitleChars) return DiscordErrors.invalidFormBody(`${at}.title`, 'BASE_TYPE_MAX_LENGTH', `Must be ${limits.embedTitleChars} or fewer in length.`);
    if (chars(embed.description) > limits.embedDescriptionChars)
      return DiscordErrors.invalidFormBody(`${at}.description`, 'BASE_TYPE_MAX_LENGTH', `Must be ${limits.embedDescriptionChars} or fewer in length.`);
    const footer = (embed.footer ?? {}) as Json;
    if (chars(footer.text) > limits.embedFooterChars) return DiscordErrors.invalidFormBody(`${at}.footer.text`, 'BASE_TYPE_MAX_LENGTH', `Must be ${limits.embedFooterChars} or fewer in length.`);
    const fields = Array.isArray(embed.fields) ? (embed.fields as Json[]) : [];
    if (fields.length > limits.embedFields) return DiscordErrors.invalidFormBody(`${at}.fields`, 'BASE_TYPE_MAX_LENGTH', `Must be ${limits.embedFields} or fewer in length.`);
    for (const [j, field] of fields.entries()) {
      if (chars(field.name) === 0 || chars(field.name) > limits.embedFieldNameChars) return DiscordErrors.invalidFormBody(`${at}.fields.${j}.name`, 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${limits.embedFieldNameChars} in length.`);
      if (chars(field.value) === 0 || chars(field.value) > limits.embedFieldValueChars) return DiscordErrors.invalidFormBody(`${at}.fields.${j}.value`, 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${limits.embedFieldValueChars} in length.`);
      total += chars(field.name) + chars(field.value);
    }
    total += chars(embed.title) + chars(embed.description) + chars(footer.text) + chars((embed.author as Json | undefined)?.name);
  }
  if (total > limits.embedTotalChars) return DiscordErrors.invalidFormBody('embeds', 'MAX_EMBED_SIZE_EXCEEDED', `Embed size exceeds maximum size of ${limits.embedTotalChars}`);
  const rows = Array.isArray(body.components) ? (body.components as Json[]) : [];
  if (rows.length > limits.maxActionRows) return DiscordErrors.invalidFormBody('components', 'BASE_TYPE_MAX_LENGTH', `Must be ${limits.maxActionRows} or fewer in length.`);
  const ids = new Set<string>();
  for (const [i, row] of rows.entries()) {
    const buttons = Array.isArray(row.components) ? (row.components as Json[]) : [];
    if (row.type !== 1 || buttons.length === 0 || buttons.length > limits.maxButtonsPerRow) return DiscordErrors.invalidFormBody(`components.${i}.components`, 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${limits.maxButtonsPerRow} in length.`);
    for (const [j, button] of buttons.entries()) {
      const at = `components.${i}.components.${j}`;
      if (chars(button.label) > limits.maxButtonLabelChars) return DiscordErrors.invalidFormBody(`${at}.label`, 'BASE_TYPE_MAX_LENGTH', `Must be ${limits.maxButtonLabelChars} or fewer in length.`);
      if (button.style === 5) continue;
      const id = button.custom_id;
      if (typeof id !== 'string' || id === '' || [...id].length > limits.maxCustomIdChars) return DiscordErrors.invalidFormBody(`${at}.custom_id`, 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${limits.maxCustomIdChars} in length.`);
      if (ids.has(id)) return DiscordErrors.invalidFormBody(`${at}.custom_id`, 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
      ids.add(id);
    }
  }
  if (requireSomething && !(typeof content === 'string' && content.trim() !== '') && embeds.length === 0 && rows.length === 0 && files === 0) return DiscordErrors.emptyMessage();
  return undefined;
}
