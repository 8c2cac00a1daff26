import type { CallHistory } from '../common/history.js';
import { randomHex } from '../common/ids.js';
import type { TeamsActivityStore } from './activities.js';
import type { TeamsAuth } from './auth.js';
import type { TeamsLimits } from './limits.js';

/** Where the emulator delivers activities to the bot (its messaging endpoint, `/api/messages`). */
export interface TeamsBotEndpoint {
  readonly url: string;
  /** The bot's app id (the token's `aud`). */
  readonly appId: string;
  /** The `serviceUrl` the activities name (default: the emulator's). */
  readonly serviceUrl?: string;
}

/** A user presses an `Action.Execute` button of a card. */
export interface TeamsClick {
  readonly conversationId: string;
  /** The activity whose card shows the button. */
  readonly activityId: string;
  /** The button, by its `title` (or `verb`). */
  readonly button: string;
  /** The clicking user: `29:…` id and display name. */
  readonly user: { readonly id: string; readonly name?: string };
  /** Sign the token with a key the JWKS does not list (a forged request). */
  readonly forged?: boolean;
  /** Send the same invoke (same activity id) again, as a replay of the previous click. */
  readonly replayOf?: TeamsClickResult;
}

/** What became of a click. */
export interface TeamsClickResult {
  /** The invoke activity's id. */
  readonly invokeId?: string;
  /** HTTP status the bot answered, when it answered. */
  readonly status?: number;
  /** The bot's invoke response (`{ statusCode, type, value }`). */
  readonly body?: unknown;
  readonly error?: 'no-endpoint' | 'no-such-button' | 'timeout' | 'unreachable';
  /** The invoke as sent, for a replay. */
  readonly invoke?: Record<string, unknown>;
}

interface ExecuteAction {
  readonly type: 'Action.Execute';
  readonly title?: string;
  readonly verb?: string;
  readonly data?: unknown;
}

/** Every `Action.Execute` in an attachment tree (card `actions`, `ActionSet`s in the body). */
function executeActions(value: unknown, out: ExecuteAction[] = []): ExecuteAction[] {
  if (Array.isArray(value)) for (const item of value) executeActions(item, out);
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (record.type === 'Action.Execute') out.push(record as unknown as ExecuteAction);
    for (const inner of Object.values(record)) if (inner && typeof inner === 'object') executeActions(inner, out);
  }
  return out;
}

/**
 * Card clicks in the emulator: `Action.Execute` (Universal Actions, card version 1.4+) sends the bot an
 * `invoke` activity named `adaptiveCard/action` with `value.action` `{ type, verb, data }` and `replyToId`
 * the card's activity, signed like every inbound activity, and waits for the bot's synchronous answer
 * `{ statusCode, type, value }` (https://learn.microsoft.com/microsoftteams/platform/task-modules-and-cards/cards/universal-actions-for-adaptive-cards/work-with-universal-actions-for-adaptive-cards).
 */
export class TeamsInvokes {
  #endpoint: TeamsBotEndpoint | undefined;
  /** Filled in once the emulator listens. */
  serviceUrl = 'http://127.0.0.1/';

  constructor(
    private readonly store: TeamsActivityStore,
    private readonly auth: TeamsAuth,
    private readonly limits: TeamsLimits,
    private readonly history: CallHistory,
  ) {}

  configure(endpoint: TeamsBotEndpoint | undefined): void {
    this.#endpoint = endpoint;
  }

  async click(click: TeamsClick): Promise<TeamsClickResult> {
    const endpoint = this.#endpoint;
    if (!endpoint) return { error: 'no-endpoint' };
    const serviceUrl = endpoint.serviceUrl ?? this.serviceUrl;
    let invoke = click.replayOf?.invoke;
    if (!invoke) {
      const activity = this.store.get(click.conversationId, click.activityId);
      const action = activity && !activity.deleted ? executeActions(activity.attachments).find((a) => a.title === click.button || a.verb === click.button) : undefined;
      if (!action) return { error: 'no-such-button' };
      const conversation = this.store.conversations.get(click.conversationId);
      invoke = {
        type: 'invoke',
        name: 'adaptiveCard/action',
        id: `f:${randomHex(16)}`,
        timestamp: new Date().toISOString(),
        channelId: 'msteams',
        serviceUrl,
        from: { id: click.user.id, ...(click.user.name ? { name: click.user.name } : {}) },
        recipient: { id: `28:${endpoint.appId}` },
        conversation: { id: click.conversationId, conversationType: conversation?.type ?? 'personal' },
        replyToId: click.activityId,
        value: { action: { type: 'Action.Execute', verb: action.verb, data: action.data ?? {} }, trigger: 'manual' },
      };
    }
    const token = await this.auth.inboundToken({ appId: endpoint.appId, serviceUrl, forged: click.forged });
    let response: Response;
    try {
      response = await fetch(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(invoke),
        signal: AbortSignal.timeout(this.limits.invokeTimeoutMs),
      });
    } catch (error) {
      const timeout = error instanceof Error && error.name === 'TimeoutError';
      return { invokeId: invoke.id as string, invoke, error: timeout ? 'timeout' : 'unreachable' };
    }
    const body: unknown = await response.json().catch(() => undefined);
    this.history.record({ route: 'invoke', key: click.activityId, outcome: response.ok ? 'accepted' : 'rejected', status: response.status, code: 0, request: invoke, card: body });
    return { invokeId: invoke.id as string, status: response.status, body, invoke };
  }
}
