import { awaitLateAnswer, type LateAnswer } from '@progresscard/core/plugin';
import type { TeamsActivity } from '../render/payload.js';

/**
 * The Bot Connector routes the plugin calls, relative to the conversation's `serviceUrl`
 * (https://learn.microsoft.com/azure/bot-service/rest-api/bot-framework-rest-connector-api-reference;
 * updates: https://learn.microsoft.com/microsoftteams/platform/bots/how-to/update-and-delete-bot-messages;
 * streaming: https://learn.microsoft.com/microsoftteams/platform/bots/streaming-ux).
 */
export const TEAMS_CONNECTOR_ROUTES = {
  /** Send to conversation (a message, or a streaming activity): answers `{ id }`. */
  sendToConversation: { method: 'POST', path: (conversationId: string) => `v3/conversations/${encodeURIComponent(conversationId)}/activities` },
  /** Reply to an activity (a continuation part under the card): answers `{ id }`. */
  replyToActivity: { method: 'POST', path: (conversationId: string, activityId: string) => `v3/conversations/${encodeURIComponent(conversationId)}/activities/${encodeURIComponent(activityId)}` },
  /** Update an activity in place. */
  updateActivity: { method: 'PUT', path: (conversationId: string, activityId: string) => `v3/conversations/${encodeURIComponent(conversationId)}/activities/${encodeURIComponent(activityId)}` },
  /** Delete an activity (a duplicate card a late send made). */
  deleteActivity: { method: 'DELETE', path: (conversationId: string, activityId: string) => `v3/conversations/${encodeURIComponent(conversationId)}/activities/${encodeURIComponent(activityId)}` },
} as const;

/** One of {@link TEAMS_CONNECTOR_ROUTES}. */
export type TeamsConnectorRoute = keyof typeof TEAMS_CONNECTOR_ROUTES;

/**
 * A connector error answer: HTTP status and the body's `{ error: { code, message } }` (the shape the Teams
 * SDK reads, `response.data.error.message`), with `Retry-After` when the answer had one (429).
 */
export class TeamsApiError extends Error {
  override readonly name = 'TeamsApiError';
  constructor(
    readonly route: TeamsConnectorRoute,
    readonly status: number,
    readonly code: string,
    readonly description: string,
    /** `Retry-After` in ms, when given. */
    readonly retryAfterMs?: number,
  ) {
    super(`teams ${route}: ${status} ${code} ${description}`.trim());
  }
}

/** The request got no connector answer (network error, timeout). */
export class TeamsRequestError extends Error {
  override readonly name = 'TeamsRequestError';
  constructor(
    readonly route: string,
    readonly reason: string,
  ) {
    super(`teams ${route}: request failed (${reason})`);
  }
}

/** What a connector call needs besides the route. */
export interface ConnectorCall {
  readonly serviceUrl: string;
  readonly bearer: string;
  readonly timeoutMs: number;
}

/** Seconds (or an HTTP date) of a `Retry-After` header, in ms. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

/**
 * Calls one connector route with a JSON activity (none for a delete) over Node's `fetch`, no retries
 * (the core's). With `late`, the call still fails after `timeoutMs`, but its answer is awaited
 * `late.windowMs` longer and given to `late.onAnswer` when it succeeds (a send Teams applied late).
 * @returns the answer's JSON (`{ id }` for sends, `{}` for stream chunks).
 * @throws TeamsApiError for an error status (also a 202 whose body names an error, such as
 *   `ContentStreamSequenceOrderPreConditionFailed`); TeamsRequestError when no answer came.
 */
export function callConnector<R extends TeamsConnectorRoute>(call: ConnectorCall, route: R, args: Parameters<(typeof TEAMS_CONNECTOR_ROUTES)[R]['path']>, activity: TeamsActivity | undefined, late?: LateAnswer<{ id?: string }>): Promise<{ id?: string }> {
  if (!late) return exchange(call, route, args, activity, call.timeoutMs);
  return awaitLateAnswer(exchange(call, route, args, activity, call.timeoutMs + late.windowMs), call.timeoutMs, () => new TeamsRequestError(route, 'TimeoutError'), late);
}

async function exchange<R extends TeamsConnectorRoute>(call: ConnectorCall, route: R, args: Parameters<(typeof TEAMS_CONNECTOR_ROUTES)[R]['path']>, activity: TeamsActivity | undefined, timeoutMs: number): Promise<{ id?: string }> {
  const spec = TEAMS_CONNECTOR_ROUTES[route];
  const url = new URL((spec.path as (...a: string[]) => string)(...args), call.serviceUrl.endsWith('/') ? call.serviceUrl : `${call.serviceUrl}/`);
  let response: Response;
  let body: { id?: string; error?: { code?: string; message?: string } } | undefined;
  try {
    response = await fetch(url, {
      method: spec.method,
      headers: { ...(activity ? { 'content-type': 'application/json' } : {}), authorization: `Bearer ${call.bearer}` },
      ...(activity ? { body: JSON.stringify(activity) } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
    body = (await response.json().catch(() => undefined)) as typeof body;
  } catch (error) {
    throw new TeamsRequestError(route, error instanceof Error ? ((error as { code?: string }).code ?? error.name) : typeof error);
  }
  if (response.ok && !body?.error) return body ?? {};
  throw new TeamsApiError(route, response.status, body?.error?.code ?? '', body?.error?.message ?? response.statusText, retryAfterMs(response.headers.get('retry-after')));
}
