import type { AnnouncedLimits } from '@progresscard/core/plugin';
import { Routes, type RESTGetAPIChannelMessagesResult, type RESTPatchAPIChannelMessageJSONBody, type RESTPatchAPIChannelMessageResult, type RESTPostAPIChannelMessageJSONBody, type RESTPostAPIChannelMessageResult } from 'discord-api-types/v10';

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
  /**
   * The channel's messages after one (`after`, newest first, `limit` 1–100; needs READ_MESSAGE_HISTORY):
   * https://discord.com/developers/docs/resources/message#get-channel-messages
   */
  listMessagesAfter: (channel: string, after: string, limit: number) => ({
    route: `GET /channels/${channel}/messages`,
    resource: channel,
    method: 'GET' as const,
    path: `${Routes.channelMessages(channel)}?${new URLSearchParams({ after, limit: String(Math.max(1, Math.min(100, limit))) })}`,
  }),
} as const;

/**
 * Largest file the plugin sends: 10 MiB, Discord's default upload limit per file (boosted servers
 * allow more; https://discord.com/developers/docs/reference#uploading-files). Larger files are
 * refused before any call, and the card names them as not uploaded.
 */
export const DISCORD_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** One file of a multipart create (`files[0]`, listed in `payload_json.attachments` with id 0). */
export interface DiscordUpload {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** The body and answer of each method. */
interface Bodies {
  POST: [RESTPostAPIChannelMessageJSONBody, RESTPostAPIChannelMessageResult];
  PATCH: [RESTPatchAPIChannelMessageJSONBody, RESTPatchAPIChannelMessageResult];
  GET: [undefined, RESTGetAPIChannelMessagesResult];
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
 * With `file`, the body goes as `multipart/form-data`: `payload_json` and `files[0]`
 * (https://discord.com/developers/docs/reference#uploading-files).
 * @throws DiscordApiError for a non-2xx answer; DiscordRequestError when no answer came.
 */
export async function callDiscord<M extends keyof Bodies>(endpoint: DiscordEndpoint, call: { route: string; resource: string; method: M; path: string }, body: Bodies[M][0], file?: DiscordUpload): Promise<Bodies[M][1]> {
  let response: Response;
  let text: string;
  const json = body === undefined ? undefined : JSON.stringify({ allowed_mentions: { parse: [] }, ...body });
  let payload: string | FormData | undefined = json;
  if (file && json !== undefined) {
    payload = new FormData();
    payload.append('payload_json', json);
    payload.append('files[0]', new Blob([file.bytes]), file.name);
  }
  try {
    response = await fetch(`${endpoint.apiUrl.replace(/\/+$/, '')}${call.path}`, {
      method: call.method,
      // fetch sets the multipart boundary itself.
      headers: { authorization: `Bot ${endpoint.botToken}`, ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}) },
      ...(payload === undefined ? {} : { body: payload }),
      signal: AbortSignal.timeout(endpoint.requestTimeoutMs),
    });
    text = await response.text();
  } catch (error) {
    throw new DiscordRequestError(call.route, error instanceof Error ? ((error as { code?: string }).code ?? error.name) : typeof error);
  }
  announce(endpoint.limits, call.route, call.resource, response.headers, Date.now());
  let answer: Record<string, unknown> = {};
  try {
    answer = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    if (response.ok) throw new DiscordRequestError(call.route, 'answer is not JSON');
  }
  if (response.ok) return answer as unknown as Bodies[M][1];
  const retryAfter = typeof answer.retry_after === 'number' ? answer.retry_after : Number(response.headers.get('retry-after') ?? Number.NaN);
  throw new DiscordApiError(call.route, response.status, Number(answer.code ?? 0), String(answer.message ?? `HTTP ${response.status}`), Number.isFinite(retryAfter) ? retryAfter : undefined, answer.global === true);
}
