import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { CardImage } from '../../card/images.js';
import type { Locale } from '../../card/view.js';
import type { ExtraCalls } from '../contract.js';

/**
 * Images on cards, for plugins: the text shown in an image's place, a placeholder a renderer puts
 * where the platform's image reference goes (the transport swaps in the uploaded key), and the upload
 * cache every transport shares ({@link ImageUploads}).
 */

/** `[image: chart.png]` / `[图片: chart.png]`: shown where an image cannot be. */
export function imagePlaceholderText(image: Pick<CardImage, 'alt'>, locale: Locale): string {
  return locale === 'zh-CN' ? `[图片: ${image.alt}]` : `[image: ${image.alt}]`;
}

const REF_PREFIX = 'progresscard-image:';

/**
 * The placeholder a renderer writes where an image's platform reference goes (e.g. a Feishu
 * `img_key`), `progresscard-image:img_…`; renders stay pure and the transport replaces it with the
 * uploaded reference (or the image with its text) before the call.
 */
export function imageRefPlaceholder(image: Pick<CardImage, 'id'>): string {
  return `${REF_PREFIX}${image.id}`;
}

/** The image id in a placeholder made by {@link imageRefPlaceholder}, or undefined when `value` is none. */
export function imageIdOfPlaceholder(value: unknown): string | undefined {
  return typeof value === 'string' && value.startsWith(REF_PREFIX) ? value.slice(REF_PREFIX.length) : undefined;
}

/** Why an image is shown as its text. */
export type ImageFallbackReason = 'upload-failed' | 'refused' | 'unknown-image';

/** Where an image may be read from, and how large it may be. */
export interface ImageReadLimits {
  /** Most bytes an image may have (the platform's upload limit). */
  readonly maxBytes: number;
  /**
   * Directories local image paths may be read from (the product's opt-in; paths come from agent
   * text and tool results, so by default none is read). A path is read only when it resolves, after
   * following symlinks, inside one of them. Relative paths resolve against the process's working directory.
   */
  readonly imageRoots?: readonly string[];
  /** Longest a local file's read may take, in ms (default {@link DEFAULT_IMAGE_READ_TIMEOUT_MS}); then the image shows as text. */
  readonly readTimeoutMs?: number;
}

/** Default {@link ImageReadLimits.readTimeoutMs}: a local image read taking longer is given up, in ms. */
export const DEFAULT_IMAGE_READ_TIMEOUT_MS = 5000;

/** PNG, JPEG, GIF and WebP file signatures: the only bytes uploaded as images. */
function hasImageSignature(bytes: Buffer): boolean {
  const startsWith = (signature: readonly number[], at = 0): boolean => signature.every((byte, index) => bytes[at + index] === byte);
  return (
    startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) ||
    startsWith([0xff, 0xd8, 0xff]) ||
    startsWith([0x47, 0x49, 0x46, 0x38]) ||
    (startsWith([0x52, 0x49, 0x46, 0x46]) && startsWith([0x57, 0x45, 0x42, 0x50], 8))
  );
}

/** The real path of `path` when it lies inside one of `roots` (symlinks followed), else undefined. */
async function pathInsideRoots(path: string, roots: readonly string[]): Promise<string | undefined> {
  let real: string;
  try {
    real = await realpath(resolve(path));
  } catch {
    return undefined;
  }
  for (const root of roots) {
    let realRoot: string;
    try {
      realRoot = await realpath(resolve(root));
    } catch {
      continue;
    }
    const inside = relative(realRoot, real);
    if (inside !== '' && inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside)) return real;
  }
  return undefined;
}

/** Reads at most `maxBytes + 1` bytes of a regular file (never trusts the size a stat reports: /proc files say 0). */
/**
 * At most `maxBytes + 1` bytes of a regular file. Anything else (a FIFO, a device, a socket) is
 * refused before it is opened: opening a FIFO for reading blocks until a writer comes, holding one
 * of libuv's four threads (four such paths stop every `fs` and `dns` call of the process). The open
 * is non-blocking as well, for a file swapped for a FIFO between the check and the open.
 */
async function readBounded(path: string, maxBytes: number, timeoutMs: number): Promise<Buffer> {
  const notRegular = () => new Error(`image ${JSON.stringify(path)} is not a regular file`);
  if (!(await stat(path)).isFile()) throw notRegular();
  const file = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const read = (async () => {
      const stats = await file.stat();
      if (!stats.isFile()) throw notRegular();
      // Sized from the file (not from the limit: a 10-byte file under a 100 MB limit must not hold
      // 100 MB), one byte more to see a file larger than the limit; grown if the file grows meanwhile.
      const cap = maxBytes + 1;
      let buffer = Buffer.alloc(Math.min(cap, stats.size + 1));
      let length = 0;
      for (;;) {
        const { bytesRead } = await file.read(buffer, length, buffer.length - length, null);
        if (bytesRead === 0) break;
        length += bytesRead;
        if (length < buffer.length) continue;
        if (buffer.length >= cap) break;
        const grown = Buffer.alloc(Math.min(cap, buffer.length * 2));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      return length === buffer.length ? buffer : buffer.subarray(0, length);
    })();
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`image ${JSON.stringify(path)}: reading took longer than ${timeoutMs} ms`)), timeoutMs);
    });
    read.catch(() => undefined);
    return await Promise.race([read, timedOut]);
  } finally {
    clearTimeout(timer);
    await file.close().catch(() => undefined);
  }
}

/**
 * The bytes of an image: decoded base64, or a local file read only when it lies inside one of
 * `limits.imageRoots` (none by default: no file is touched). At most `maxBytes + 1` bytes are read.
 * @throws Error naming the image when the path is outside the roots (or no roots are set), is not a
 *   regular file (a FIFO, a device), cannot be read within `limits.readTimeoutMs`, is empty, larger than `maxBytes`, or does not start with a PNG, JPEG, GIF or WebP signature.
 */
export async function readImageBytes(image: CardImage, limits: ImageReadLimits): Promise<Buffer> {
  const { maxBytes } = limits;
  let bytes: Buffer;
  if (image.source.kind === 'base64') bytes = Buffer.from(image.source.data, 'base64');
  else {
    const roots = limits.imageRoots ?? [];
    if (roots.length === 0) throw new Error(`image ${image.id}: local image paths are not read (no imageRoots set)`);
    const real = await pathInsideRoots(image.source.path, roots);
    if (!real) throw new Error(`image ${image.id}: ${JSON.stringify(image.source.path)} is not inside the image roots`);
    bytes = await readBounded(real, maxBytes, limits.readTimeoutMs ?? DEFAULT_IMAGE_READ_TIMEOUT_MS);
  }
  if (bytes.length === 0) throw new Error(`image ${image.id} is empty`);
  if (bytes.length > maxBytes) throw new Error(`image ${image.id} is more than ${maxBytes} bytes`);
  if (!hasImageSignature(bytes)) throw new Error(`image ${image.id} is not a PNG, JPEG, GIF or WebP image`);
  return bytes;
}

type Upload = { readonly ref: string } | { readonly failed: ImageFallbackReason; readonly detail: string };

/**
 * A transport's uploaded images, by image id: each image is uploaded once (a failed upload is not
 * tried again, the card shows its text), and a reference the platform refused later (Feishu
 * 230099 / 200570 invalid image keys) is shown as text from then on. Bounded: the oldest entries
 * go past `maxEntries`.
 */
export class ImageUploads {
  private readonly uploads = new Map<string, Upload>();
  private readonly pending = new Map<string, Promise<Upload>>();

  /**
   * @param upload uploads one image and returns the platform's reference (Feishu `image_key`,
   *   DingTalk `media_id`); throws on failure.
   */
  constructor(
    private readonly upload: (image: CardImage) => Promise<string>,
    private readonly maxEntries = 1000,
  ) {}

  /**
   * The reference of each image (`undefined`: show its text), uploading those never tried, one at a
   * time, each after `extraCalls.acquire('image-upload')`. Never rejects.
   */
  async resolve(images: readonly CardImage[] | undefined, extraCalls: ExtraCalls | undefined): Promise<ReadonlyMap<string, string | undefined>> {
    const refs = new Map<string, string | undefined>();
    for (const image of images ?? []) {
      const known = this.uploads.get(image.id) ?? (await this.uploadOnce(image, extraCalls));
      refs.set(image.id, 'ref' in known ? known.ref : undefined);
    }
    return refs;
  }

  /** Why an image shows as text, when it does (for logs and tests). */
  fallbackReason(imageId: string): ImageFallbackReason | undefined {
    const known = this.uploads.get(imageId);
    return known && 'failed' in known ? known.failed : undefined;
  }

  /** The platform refused these references: the images show as text from now on. Returns how many were known. */
  refuse(refs: Iterable<string>): number {
    const refused = new Set(refs);
    let count = 0;
    for (const [id, upload] of this.uploads) {
      if ('ref' in upload && refused.has(upload.ref)) {
        this.uploads.set(id, { failed: 'refused', detail: `the platform refused ${upload.ref}` });
        count += 1;
      }
    }
    return count;
  }

  private uploadOnce(image: CardImage, extraCalls: ExtraCalls | undefined): Promise<Upload> {
    let running = this.pending.get(image.id);
    if (!running) {
      running = (async (): Promise<Upload> => {
        try {
          await extraCalls?.acquire('image-upload');
          return { ref: await this.upload(image) };
        } catch (error) {
          return { failed: 'upload-failed', detail: error instanceof Error ? error.message : String(error) };
        }
      })().then((result) => {
        this.pending.delete(image.id);
        this.uploads.set(image.id, result);
        if (this.uploads.size > this.maxEntries) this.uploads.delete(this.uploads.keys().next().value as string);
        return result;
      });
      this.pending.set(image.id, running);
    }
    return running;
  }
}

/** Where an attachment may be read from and how large it may be (see {@link readAttachmentFile}). */
export interface AttachmentReadLimits {
  /** Most bytes the platform accepts for one file. */
  readonly maxBytes: number;
  /** The channel's opt-in roots (the same as `imageRoots`): none set, no file is read. */
  readonly roots: readonly string[];
  /** Longest the read may take, in ms (default {@link DEFAULT_IMAGE_READ_TIMEOUT_MS}). */
  readonly readTimeoutMs?: number;
}

/**
 * The bytes of a file the agent attached, read only when its real path (symlinks followed) lies
 * inside one of `limits.roots`, and only when it is a regular file of 1 to `maxBytes` bytes.
 * @throws Error with a short reason the card shows: `outside the allowed folders`, `not found`,
 *   `empty file`, `larger than 30 MB`…
 */
export async function readAttachmentFile(path: string, limits: AttachmentReadLimits): Promise<Buffer> {
  if (limits.roots.length === 0) throw new Error('no folder is allowed for uploads (imageRoots not set)');
  const real = await pathInsideRoots(path, limits.roots);
  if (!real) throw new Error('outside the allowed folders, or not found');
  let bytes: Buffer;
  try {
    bytes = await readBounded(real, limits.maxBytes, limits.readTimeoutMs ?? DEFAULT_IMAGE_READ_TIMEOUT_MS);
  } catch (error) {
    throw new Error(`unreadable (${(error as Error).message.replace(/^image /, '')})`);
  }
  if (bytes.length === 0) throw new Error('empty file');
  if (bytes.length > limits.maxBytes) throw new Error(`larger than ${formatBytes(limits.maxBytes)}`);
  return bytes;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}
