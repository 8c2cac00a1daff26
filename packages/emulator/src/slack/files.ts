import type { Hono } from 'hono';
import type { Clock } from '../common/clock.js';
import { SlackErrors, type SlackError } from './codes.js';
import type { SlackMessageStore, StoredSlackMessage } from './messages.js';
import type { SlackOutcome } from './streams.js';

/** A file as the emulator holds it, from files.getUploadURLExternal to files.completeUploadExternal. */
export interface StoredSlackFile {
  /** `F…`, answered by files.getUploadURLExternal. */
  readonly id: string;
  readonly filename: string;
  /** The `length` announced at files.getUploadURLExternal, in bytes. */
  readonly length: number;
  /** The bytes POSTed to the upload URL; undefined until they arrive. */
  bytes?: Uint8Array;
  title?: string;
  /** Set once files.completeUploadExternal shared it: the channel and the message showing it. */
  shared?: { readonly channel: string; readonly ts: string; readonly threadTs?: string };
  /** What Slack links the file as (`https://<team>.slack.com/files/<user>/<id>/<name>`). */
  readonly permalink: string;
}

/** Where the upload URLs point: `${publicBaseUrl}/upload/v1/<file id>` (real Slack: `https://files.slack.com/upload/v1/…`). */
const UPLOAD_PATH = '/upload/v1';

/**
 * Slack's three-step file upload (https://docs.slack.dev/reference/methods/files.getUploadURLExternal,
 * https://docs.slack.dev/reference/methods/files.completeUploadExternal): get an upload URL and file
 * id for a `filename` and `length`; POST the bytes there (raw or multipart, HTTP 200 when
 * received); complete with `files: [{ id, title }]` and a `channel_id` (and `thread_ts`) to share
 * it, which posts a message carrying the file. A file over `maxFileBytes` is refused at the first
 * step (`file_upload_size_restricted`); one whose bytes never arrived, at the last (`file_not_found`).
 */
export class SlackFiles {
  private readonly byId = new Map<string, StoredSlackFile>();
  private next = 1;
  /** The base the upload URLs point at (the started emulator sets its own). */
  baseUrl = 'http://127.0.0.1';

  constructor(
    private readonly store: SlackMessageStore,
    private readonly clock: Clock,
    private readonly maxFileBytes: number,
    private readonly channelError: (channel: unknown) => SlackError | undefined,
  ) {}

  /** files.getUploadURLExternal. */
  getUploadUrl(args: Record<string, unknown>): SlackOutcome {
    const filename = typeof args.filename === 'string' ? args.filename : '';
    const length = Number(args.length ?? 0);
    if (!filename || !Number.isInteger(length) || length <= 0) return { ok: false, error: SlackErrors.missingArgument() };
    if (length > this.maxFileBytes) return { ok: false, error: SlackErrors.fileUploadSizeRestricted() };
    const id = `F0${String(this.next++).padStart(8, '0')}`;
    this.byId.set(id, { id, filename, length, permalink: `https://progresscard.slack.com/files/U0BOT/${id}/${encodeURIComponent(filename)}` });
    return { ok: true, key: id, fields: { upload_url: `${this.baseUrl}${UPLOAD_PATH}/${id}`, file_id: id } };
  }

  /** files.completeUploadExternal. */
  complete(args: Record<string, unknown>, token: string): SlackOutcome {
    const listed = parseFiles(args.files);
    if (!listed) return { ok: false, error: SlackErrors.invalidArguments() };
    const found = listed.map((entry) => ({ entry, file: this.byId.get(entry.id) }));
    if (found.some(({ file }) => !file?.bytes || file.shared)) return { ok: false, error: SlackErrors.fileNotFound() };
    const channel = typeof args.channel_id === 'string' && args.channel_id !== '' ? args.channel_id : undefined;
    let message: StoredSlackMessage | undefined;
    if (channel) {
      const problem = this.channelError(channel);
      if (problem) return { ok: false, error: problem };
      const threadTs = typeof args.thread_ts === 'string' && args.thread_ts !== '' ? args.thread_ts : undefined;
      if (threadTs && this.store.get(threadTs)?.channel !== channel) return { ok: false, error: SlackErrors.invalidArguments() };
      const now = this.clock();
      const text = typeof args.initial_comment === 'string' ? args.initial_comment : '';
      message = this.store.add({ channel, ts: this.store.nextTs(now), threadTs, botToken: token, text, blocks: undefined, state: 'live', createdAt: now, updatedAt: now, updates: 0, fileIds: found.map(({ file }) => file!.id) });
    }
    for (const { entry, file } of found) {
      file!.title = entry.title ?? file!.filename;
      if (message) file!.shared = { channel: message.channel, ts: message.ts, ...(message.threadTs ? { threadTs: message.threadTs } : {}) };
    }
    return {
      ok: true,
      key: message?.ts,
      ...(message ? { change: 'posted' as const } : {}),
      fields: { files: found.map(({ file }) => ({ id: file!.id, name: file!.filename, title: file!.title, size: file!.bytes!.length, permalink: file!.permalink })) },
    };
  }

  /** Serves the upload URLs: the bytes as the raw body, or the first file of a multipart form. */
  mount(app: Hono): void {
    app.post(`${UPLOAD_PATH}/:id`, async (c) => {
      const file = this.byId.get(c.req.param('id'));
      if (!file || file.bytes) return c.text('unknown upload ticket', 404);
      const type = c.req.header('content-type') ?? '';
      let bytes: Uint8Array;
      if (type.includes('multipart/form-data')) {
        const form = await c.req.parseBody();
        const part = Object.values(form).find((value): value is File => typeof value === 'object' && value !== null && 'arrayBuffer' in value);
        if (!part) return c.text('no file in the form', 400);
        bytes = new Uint8Array(await part.arrayBuffer());
      } else {
        bytes = new Uint8Array(await c.req.arrayBuffer());
      }
      if (bytes.length === 0) return c.text('empty upload', 400);
      file.bytes = bytes;
      return c.text(`OK - ${bytes.length}`, 200);
    });
  }

  /** Every file, in upload order. */
  list(): StoredSlackFile[] {
    return [...this.byId.values()];
  }
}

/** `files` as the SDK sends it: a JSON string of `[{ id, title? }]`. */
function parseFiles(value: unknown): { id: string; title?: string }[] | undefined {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
  const entries = parsed.map((entry) => (entry && typeof entry === 'object' && typeof (entry as { id?: unknown }).id === 'string' ? (entry as { id: string; title?: unknown }) : undefined));
  if (entries.some((entry) => !entry)) return undefined;
  return entries.map((entry) => ({ id: entry!.id, ...(typeof entry!.title === 'string' ? { title: entry!.title } : {}) }));
}
