import type { APIActionRowComponent, APIButtonComponentWithCustomId, APIEmbed } from 'discord-api-types/v10';

/** A button that calls back (https://discord.com/developers/docs/components/reference#button). */
export type DiscordButton = APIButtonComponentWithCustomId;

/**
 * What the renderer gives the transport: the body of one Discord message
 * (https://discord.com/developers/docs/resources/message#create-message): `content` (≤ 2000
 * characters), rich `embeds` (≤ 4096 description, ≤ 6000 in all) and action rows of buttons.
 */
export interface DiscordMessage {
  readonly content?: string;
  readonly embeds?: readonly APIEmbed[];
  readonly components?: readonly APIActionRowComponent<DiscordButton>[];
}
