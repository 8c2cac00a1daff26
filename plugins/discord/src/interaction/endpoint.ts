import type { IncomingMessage, ServerResponse } from 'node:http';
import { CallbackServer, type ChannelInteraction, type ClickHandler, type ClickReply, type ControlClick, callbackHeader, readCallbackBody } from '@progresscard/core/plugin';
import { InteractionResponseType, InteractionType, MessageFlags, type APIInteraction } from 'discord-api-types/v10';
import type { CustomIdRegistry } from './custom-id.js';
import { discordPublicKey, verifyDiscordRequest } from './signature.js';

/** Options of {@link DiscordInteractions}. */
export interface DiscordInteractionsOptions {
  /** The application's public key, 64 hex digits. */
  readonly publicKey: string;
  readonly host: string;
  /** 0: any free port (see {@link DiscordInteractions.url}). */
  readonly port: number;
  readonly path: string;
  /** Decodes the buttons' `custom_id` (shared with the renderer). */
  readonly customIds: CustomIdRegistry;
  /** Epoch ms now (default `Date.now`), for the age of a signed request's timestamp. */
  readonly now?: () => number;
}

/** A MESSAGE_COMPONENT interaction as a click, or undefined when it is not one of our buttons. */
function clickFromInteraction(interaction: APIInteraction, customIds: CustomIdRegistry): ControlClick | undefined {
  if (interaction.type !== InteractionType.MessageComponent) return undefined;
  const target = customIds.decode(interaction.data.custom_id);
  const user = interaction.member?.user ?? interaction.user;
  if (!target || !user) return undefined;
  const name = user.global_name ?? user.username;
  return { cardId: target.cardId, interactionId: target.interactionId, optionId: target.optionId, user: { id: user.id, ...(name ? { name } : {}) }, deliveryId: interaction.id };
}

/**
 * The answer to a click, sent as the HTTP response at once (within Discord's 3 s): a click that
 * changed the card is acknowledged with type 6 DEFERRED_UPDATE_MESSAGE (the card is edited through
 * the core's normal update), any other outcome ("already decided", a polite refusal) with a
 * message only the clicking user sees (type 4, flag EPHEMERAL)
 * (https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction).
 */
function responseFor(reply: ClickReply | undefined): Record<string, unknown> {
  if (reply && (reply.outcome === 'decided' || reply.outcome === 'stopped') && !reply.repeated) return { type: InteractionResponseType.DeferredMessageUpdate };
  if (!reply) return { type: InteractionResponseType.DeferredMessageUpdate };
  return { type: InteractionResponseType.ChannelMessageWithSource, data: { content: reply.message, flags: MessageFlags.Ephemeral, allowed_mentions: { parse: [] } } };
}

/**
 * Discord buttons through the application's Interactions Endpoint URL: refuses a request whose
 * Ed25519 signature does not verify or whose signed timestamp is more than five minutes from now
 * (HTTP 401, as Discord requires and tests; the age check is ours, see `verifyDiscordRequest`),
 * answers PING with
 * PONG, routes a MESSAGE_COMPONENT click on one of progresscard's buttons to the core and answers
 * in the HTTP response ({@link responseFor}), well within the 3 s.
 */
export class DiscordInteractions implements ChannelInteraction {
  private readonly server: CallbackServer;
  private readonly key;

  /** @throws TypeError when the public key is not 64 hex digits. */
  constructor(private readonly options: DiscordInteractionsOptions) {
    this.key = discordPublicKey(options.publicKey);
    this.server = new CallbackServer({ host: options.host, port: options.port, path: options.path, answer: send });
  }

  /** The endpoint URL once listening, e.g. `http://127.0.0.1:41234/discord/interactions`. */
  get url(): string | undefined {
    return this.server.url;
  }

  /** Listens. @throws the listen error (e.g. `EADDRINUSE`). */
  async start(onClick: ClickHandler): Promise<void> {
    await this.server.listen((request, response) => this.serve(request, response, onClick));
  }

  stop(): Promise<void> {
    return this.server.close();
  }

  private async serve(request: IncomingMessage, response: ServerResponse, onClick: ClickHandler): Promise<void> {
    const raw = await readCallbackBody(request);
    if (raw === undefined) return send(response, 413, 'body too large');
    if (!verifyDiscordRequest(this.key, callbackHeader(request, 'x-signature-ed25519'), callbackHeader(request, 'x-signature-timestamp'), raw, (this.options.now ?? Date.now)())) return send(response, 401, 'invalid request signature');
    let interaction: APIInteraction;
    try {
      interaction = JSON.parse(raw) as APIInteraction;
    } catch {
      return send(response, 400, 'not JSON');
    }
    if (interaction.type === InteractionType.Ping) return json(response, { type: InteractionResponseType.Pong });
    const click = clickFromInteraction(interaction, this.options.customIds);
    json(response, responseFor(click ? await onClick(click) : undefined));
  }
}

function json(response: ServerResponse, body: unknown): void {
  if (response.headersSent) return;
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function send(response: ServerResponse, status: number, text: string): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(text);
}
