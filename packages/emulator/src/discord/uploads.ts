import type { Context } from 'hono';
import type { StoredDiscordMessage } from './messages.js';

type Json = Record<string, unknown>;

/** A file of a multipart request, as received. */
export interface ReceivedDiscordFile {
  /** The form field, `files[0]`… */
  readonly field: string;
  readonly filename: string;
  readonly bytes: Uint8Array;
}

/**
 * A request body: JSON, or `multipart/form-data` with the JSON in `payload_json` and files in
 * `files[n]` (https://discord.com/developers/docs/reference#uploading-files). A body that does not
 * parse reads as `{}` (the route's own checks then refuse it).
 */
export async function readDiscordBody(c: Context): Promise<{ body: Json; files: ReceivedDiscordFile[] }> {
  const type = c.req.header('content-type') ?? '';
  if (!type.includes('multipart/form-data')) return { body: ((await c.req.json().catch(() => ({}))) ?? {}) as Json, files: [] };
  const form = await c.req.parseBody({ all: false }).catch(() => ({}) as Record<string, unknown>);
  let body: Json = {};
  try {
    const parsed: unknown = typeof form.payload_json === 'string' ? JSON.parse(form.payload_json) : {};
    body = parsed && typeof parsed === 'object' ? (parsed as Json) : {};
  } catch {
    body = {};
  }
  const files: ReceivedDiscordFile[] = [];
  for (const [field, value] of Object.entries(form)) {
    if (!/^files\[\d+\]$/.test(field) || typeof value !== 'object' || value === null || !('arrayBuffer' in value)) continue;
    const file = value as File;
    files.push({ field, filename: file.name || 'file', bytes: new Uint8Array(await file.arrayBuffer()) });
  }
  return { body, files };
}

/**
 * Messages of a channel after `after` (a message id), newest first, at most `limit` (1–100, default
 * 50): GET /channels/{id}/messages (https://discord.com/developers/docs/resources/message#get-channel-messages).
 */
export function messagesAfter(all: readonly StoredDiscordMessage[], channelId: string, after: string | undefined, limit: string | undefined): StoredDiscordMessage[] {
  const count = Math.max(1, Math.min(100, Number(limit ?? 50) || 50));
  const from = after && /^\d+$/.test(after) ? BigInt(after) : 0n;
  return all
    .filter((m) => m.channelId === channelId && m.state !== 'deleted' && BigInt(m.id) > from)
    .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
    .slice(0, count)
    .reverse();
}
