import type { AnnouncedLimits } from '@progresscard/core/plugin';
import { Routes, type RESTPatchAPIChannelMessageJSONBody, type RESTPatchAPIChannelMessageResult, type RESTPostAPIChannelMessageJSONBody, type RESTPostAPIChannelMessageResult } from 'discord-api-types/v10';

/** A Discord error answer, thrown by {@link callDiscord}. */
export class DiscordApiError extends Error {
  override readonly name = 'DiscordApiError';
  constructor(
    /** The route, e.g. `PATCH /channels/123/messages`. */
    readonly route: string,
    readonly status: number,
    /** The JSON error code (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes); 0 when none. */
    readonly code: number,
    readonly description: string,
    /** For a 429: `retry_after`, seconds. */
    readonly retryAfter?: number,
    /** For a 429: true when the global limit was hit. */
    readonly global?: boolean,
  ) {
    super(`discord ${route}: ${status}${code ? ` ${code}` : ''} ${description}`);
  }
}

/** The request never got a Discord answer (network error, timeout, not JSON). */
export class DiscordRequestError extends Error {
  override readonly name = 'DiscordRequestError';
  constructor(
    readonly route: string,
    readonly reason: string,
  ) {
    super(`discord ${route}: request failed (${reason})`);
  }
}

/** Where and how to call the REST API. */
export interface DiscordEndpoint {
  /** `https://discord.com/api/v10` or an emulator's `apiUrl`. */
  readonly apiUrl: string;
  readonly botToken: string;
  readonly requestTimeoutMs: number;
  /** Told every limit the answers announce. */
  readonly limits: AnnouncedLimits;
}

/** The routes the plugin calls, by budget route name (route template and its top-level resource, the channel). */
export const DISCORD_ROUTES = {
  /** https://discord.com/developers/docs/resources/message#create-message */
  createMessage: (channel: string) => ({ route: `POST /channels/${channel}/messages`, resource: channel, method: 'POST' as const, path: Routes.channelMessages(channel) }),
  /** https://discord.com/developers/docs/resources/message#edit-message (the message id is not a top-level resource: one bucket a channel) */
  editMessage: (channel: string, message: string) => ({ route: `PATCH /channels/${channel}/messages`, resource: channel, method: 'PATCH' as const, path: Routes.channelMessage(channel, message) }),
} as const;

/** The body and answer of each method. */
interface Bodies {
  POST: [RESTPostAPIChannelMessageJSONBody, RESTPostAPIChannelMessageResult];
  PATCH: [RESTPatchAPIChannelMessageJSONBody, RESTPatchAPIChannelMessageResult];
}

/**
 * Reads the `X-RateLimit-*` headers (https://discord.com/developers/docs/topics/rate-limits#header-format).
 * A budget is named by `X-RateLimit-Bucket` and the route's top-level resource: the bucket hash
 * leaves the top-level resource (channel_id, guild_id, webhook_id) out, and a rate limit is the
 * pair of both (same page, "Per-route" and header format), so two channels never share one budget
 * although they announce the same bucket hash.
 */
function announce(limits: AnnouncedLimits, route: string, resource: string, headers: Headers, receivedAt: number): void {
  const limit = headers.get('x-ratelimit-limit');
  const remaining = headers.get('x-ratelimit-remaining');
  const resetAfter = headers.get('x-ratelimit-reset-after');
  if (limit === null || remaining === null || resetAfter === null) return;
  const bucket = headers.get('x-ratelimit-bucket');
  limits.report(route, { bucket: bucket === null ? undefined : `${bucket}:${resource}`, limit: Number(limit), remaining: Number(remaining), resetAfterMs: Number(resetAfter) * 1000, receivedAt });
}

/**
 * Makes one REST call with a JSON body over Node's built-in `fetch`; no retries and no queue of its
 * own (the core's budgets are paced by what the answers announce, reported to `endpoint.limits`).
 * Mentions never ping unless the body says otherwise: `allowed_mentions: { parse: [] }` by default.
 * @throws DiscordApiError for a non-2xx answer; DiscordRequestError when no answer came.
 */
export async function callDiscord<M extends keyof Bodies>(endpoint: DiscordEndpoint, call: { route: string; resource: string; method: M; path: string }, body: Bodies[M][0]): Promise<Bodies[M][1]> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${endpoint.apiUrl.replace(/\/+$/, '')}${call.path}`, {
      method: call.method,
      headers: { authorization: `Bot ${endpoint.botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ allowed_mentions: { parse: [] }, ...body }),
      signal: AbortSignal.timeout(endpoint.requestTimeoutMs),
    });
    text = await response.text();
  } catch (error) {
    throw new DiscordRequestError(call.route, error instanceof Error ? ((error as { code?: string }).code ?? error.name) : typeof error);
  }
  announce(endpoint.limits, call.route, call.resource, response.headers, Date.now());
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    if (response.ok) throw new DiscordRequestError(call.route, 'answer is not JSON');
  }
  if (response.ok) return json as unknown as Bodies[M][1];
  const retryAfter = typeof json.retry_after === 'number' ? json.retry_after : Number(response.headers.get('retry-after') ?? Number.NaN);
  throw new DiscordApiError(call.route, response.status, Number(json.code ?? 0), String(json.message ?? `HTTP ${response.status}`), Number.isFinite(retryAfter) ? retryAfter : undefined, json.global === true);
}
