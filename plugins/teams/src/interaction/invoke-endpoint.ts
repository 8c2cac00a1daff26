import type { IncomingMessage, ServerResponse } from 'node:http';
import { CallbackServer, callbackHeader, readCallbackBody, type CardView, type ChannelInteraction, type ClickHandler, type ControlClick } from '@progresscard/core/plugin';
import { ANSWER_INPUT_ID, TEAMS_VERBS } from '../render/controls.js';
import { ADAPTIVE_CARD_CONTENT_TYPE, type AdaptiveCard } from '../render/payload.js';
import { BotTokenError, BotTokenValidator } from './bot-token.js';

/** Options of {@link TeamsInvokeEndpoint}. */
export interface TeamsInvokeEndpointOptions {
  readonly appId: string;
  readonly host: string;
  /** 0: any free port (see {@link TeamsInvokeEndpoint.url}). */
  readonly port: number;
  readonly path: string;
  /** Where the keys of incoming tokens are published (Bot Framework's OpenID configuration, or an emulator's). */
  readonly openIdMetadataUrl: string;
  /** The card after a click, answered to the clicking user in the invoke response. */
  readonly render: (view: CardView) => AdaptiveCard | undefined;
}

/** An `adaptiveCard/action` invoke, as far as the endpoint reads it. */
interface InvokeActivity {
  readonly type?: string;
  readonly name?: string;
  readonly id?: string;
  readonly serviceUrl?: string;
  readonly channelId?: string;
  readonly from?: { readonly id?: string; readonly name?: string };
  readonly value?: { readonly action?: { readonly type?: string; readonly verb?: string; readonly data?: Record<string, unknown> } };
}

/** An invoke as a click, or undefined when it is not a press on one of progresscard's buttons. */
function clickOf(activity: InvokeActivity): ControlClick | undefined {
  const action = activity.value?.action;
  const data = action?.data;
  if (action?.type !== 'Action.Execute' || !data || typeof data.cardId !== 'string' || typeof data.interactionId !== 'string' || typeof activity.from?.id !== 'string' || typeof activity.id !== 'string') return undefined;
  const user = { id: activity.from.id, ...(activity.from.name ? { name: activity.from.name } : {}) };
  switch (action.verb) {
    case TEAMS_VERBS.choice:
      return typeof data.optionId === 'string' ? { cardId: data.cardId, interactionId: data.interactionId, optionId: data.optionId, user, deliveryId: activity.id } : undefined;
    case TEAMS_VERBS.answer:
      return { cardId: data.cardId, interactionId: data.interactionId, text: typeof data[ANSWER_INPUT_ID] === 'string' ? data[ANSWER_INPUT_ID] : '', user, deliveryId: activity.id };
    case TEAMS_VERBS.stop:
      return { cardId: data.cardId, interactionId: 'stop', optionId: 'stop', user, deliveryId: activity.id };
    default:
      return undefined;
  }
}

/**
 * Teams card buttons through the bot's messaging endpoint: every request must carry a valid Bot Framework
 * JWT ({@link BotTokenValidator}; 401 without one, 403 for a forged, expired or misaddressed one). An
 * `adaptiveCard/action` invoke on one of progresscard's `Action.Execute` buttons goes to the core, and the
 * core's reply is the invoke's synchronous answer: the card after the click
 * (`application/vnd.microsoft.card.adaptive`, which replaces the card for the clicking user; the core's
 * `PUT` updates it for everyone) or the reply as a message
 * (https://learn.microsoft.com/microsoftteams/platform/task-modules-and-cards/cards/universal-actions-for-adaptive-cards/work-with-universal-actions-for-adaptive-cards).
 * A replayed invoke (the same activity id) is answered from the core's memory, nothing done again. Other
 * activities are answered 200 and ignored.
 */
export class TeamsInvokeEndpoint implements ChannelInteraction {
  readonly #server: CallbackServer;
  readonly #validator: BotTokenValidator;
  readonly #render: TeamsInvokeEndpointOptions['render'];

  constructor(options: TeamsInvokeEndpointOptions) {
    this.#server = new CallbackServer({ host: options.host, port: options.port, path: options.path, answer: (response, status, message) => send(response, status, { error: message }) });
    this.#validator = new BotTokenValidator(options.appId, options.openIdMetadataUrl);
    this.#render = options.render;
  }

  /** The endpoint URL once listening, e.g. `http://127.0.0.1:3978/api/messages`. */
  get url(): string | undefined {
    return this.#server.url;
  }

  /** Listens. @throws the listen error (e.g. `EADDRINUSE`). */
  async start(onClick: ClickHandler): Promise<void> {
    await this.#server.listen((request, response) => this.#serve(request, response, onClick));
  }

  stop(): Promise<void> {
    return this.#server.close();
  }

  async #serve(request: IncomingMessage, response: ServerResponse, onClick: ClickHandler): Promise<void> {
    const raw = await readCallbackBody(request);
    if (raw === undefined) return send(response, 413, { error: 'body too large' });
    let activity: InvokeActivity;
    try {
      activity = JSON.parse(raw) as InvokeActivity;
    } catch {
      return send(response, 400, { error: 'not JSON' });
    }
    try {
      await this.#validator.validate(callbackHeader(request, 'authorization'), activity);
    } catch (error) {
      if (error instanceof BotTokenError) return send(response, error.status, { error: error.message });
      throw error;
    }
    if (activity.type !== 'invoke' || activity.name !== 'adaptiveCard/action') return send(response, 200, {});
    const click = clickOf(activity);
    if (!click) return send(response, 200, { statusCode: 200, type: 'application/vnd.microsoft.activity.message', value: '' });
    const reply = await onClick(click);
    const card = reply.view ? this.#render(reply.view) : undefined;
    send(response, 200, card ? { statusCode: 200, type: ADAPTIVE_CARD_CONTENT_TYPE, value: card } : { statusCode: 200, type: 'application/vnd.microsoft.activity.message', value: reply.message });
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}
