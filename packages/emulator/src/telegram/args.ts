import type { Context } from 'hono';

/** A method's arguments: query, JSON body or form fields; a multipart file reads as {@link UploadedFile}. */
export type Args = Record<string, unknown>;

/** A file of a `multipart/form-data` request (https://core.telegram.org/bots/api#sending-files). */
export interface UploadedFile {
  readonly filename: string;
  readonly bytes: Uint8Array;
}

/** Reads a call's arguments; `reply_markup` and `reply_parameters` form fields are JSON. */
export async function readArgs(c: Context): Promise<Args> {
  const type = c.req.header('content-type') ?? '';
  const query = c.req.query();
  if (type.includes('application/json')) {
    const body: unknown = await c.req.json().catch(() => ({}));
    return { ...query, ...(body && typeof body === 'object' ? (body as Args) : {}) };
  }
  if (c.req.method === 'GET') return query;
  const form = await c.req.parseBody().catch(() => ({}));
  const parsed: Args = { ...query };
  for (const [k, v] of Object.entries(form)) {
    if (typeof v === 'object' && v !== null && 'arrayBuffer' in v) {
      const file = v as File;
      parsed[k] = { filename: file.name || 'file', bytes: new Uint8Array(await file.arrayBuffer()) } satisfies UploadedFile;
      continue;
    }
    const text = typeof v === 'string' ? v : String(v);
    try {
      parsed[k] = k === 'reply_markup' || k === 'reply_parameters' ? JSON.parse(text) : text;
    } catch {
      parsed[k] = text;
    }
  }
  return parsed;
}

/** An integer argument (number or digits), else undefined. */
export const toInt = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n) ? n : undefined;
};

/** The uploaded file of an argument, else undefined. */
export const uploadedFile = (value: unknown): UploadedFile | undefined =>
  typeof value === 'object' && value !== null && (value as UploadedFile).bytes instanceof Uint8Array ? (value as UploadedFile) : undefined;
