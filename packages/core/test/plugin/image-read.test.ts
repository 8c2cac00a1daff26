import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAttachmentFile, readImageBytes } from '../../src/plugin/index.js';
import type { CardImage } from '../../src/index.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==', 'base64');
const atPath = (path: string): CardImage => ({ id: 'img_test', alt: 'a', source: { kind: 'path', path }, origin: 'answer' });

async function root() {
  const base = await mkdtemp(join(tmpdir(), 'pc-read-'));
  const dir = join(base, 'root');
  await mkdir(dir);
  await writeFile(join(dir, 'ok.png'), PNG);
  await writeFile(join(base, 'outside.png'), PNG);
  return { base, dir };
}

describe('readImageBytes: local paths only inside imageRoots, image bytes only', () => {
  it('reads an image inside a root', async () => {
    const { dir } = await root();
    await expect(readImageBytes(atPath(join(dir, 'ok.png')), { maxBytes: 1000, imageRoots: [dir] })).resolves.toEqual(PNG);
  });

  it('refuses a FIFO inside a root at once (opening it would wait for a writer for ever) and still reads the next image', async () => {
    const { dir } = await root();
    execFileSync('mkfifo', [join(dir, 'pipe.png')]);
    const limits = { maxBytes: 1000, imageRoots: [dir] };
    await expect(readImageBytes(atPath(join(dir, 'pipe.png')), limits)).rejects.toThrow(/not a regular file/);
    await expect(readImageBytes(atPath(join(dir, 'ok.png')), limits)).resolves.toEqual(PNG);
  });

  it('reads no local path without roots', async () => {
    const { dir } = await root();
    await expect(readImageBytes(atPath(join(dir, 'ok.png')), { maxBytes: 1000 })).rejects.toThrow(/no imageRoots set/);
  });

  it('refuses traversal, a symlink leading out and a /proc file', async () => {
    const { base, dir } = await root();
    await symlink(join(base, 'outside.png'), join(dir, 'link.png'));
    const limits = { maxBytes: 1000, imageRoots: [dir] };
    await expect(readImageBytes(atPath(join(dir, '..', 'outside.png')), limits)).rejects.toThrow(/not inside the image roots/);
    await expect(readImageBytes(atPath(join(dir, 'link.png')), limits)).rejects.toThrow(/not inside the image roots/);
    await expect(readImageBytes(atPath('/proc/self/environ'), limits)).rejects.toThrow(/not inside the image roots/);
  });

  it('bounds a file that stats as size 0 by the bytes read, and refuses non-image bytes', async () => {
    await expect(readImageBytes(atPath('/proc/self/environ'), { maxBytes: 4, imageRoots: ['/proc'] })).rejects.toThrow(/more than 4 bytes/);
    await expect(readImageBytes(atPath('/proc/self/status'), { maxBytes: 1_000_000, imageRoots: ['/proc'] })).rejects.toThrow(/not a PNG, JPEG, GIF or WebP/);
    const base64: CardImage = { id: 'img_b', alt: 'b', source: { kind: 'base64', mediaType: 'image/png', data: Buffer.from('hello').toString('base64') }, origin: 'tool' };
    await expect(readImageBytes(base64, { maxBytes: 1000 })).rejects.toThrow(/not a PNG/);
  });
});

describe('readAttachmentFile: memory follows the file, not the limit', () => {
  it('a 10-byte file under a 100 MB limit holds 11 bytes at most, and a file over the limit is still refused', async () => {
    const { dir } = await root();
    await writeFile(join(dir, 'note.txt'), '0123456789');
    await writeFile(join(dir, 'big.txt'), Buffer.alloc(5000, 0x61));
    const read = await readAttachmentFile(join(dir, 'note.txt'), { roots: [dir], maxBytes: 100 * 1024 * 1024 });
    expect(read.toString()).toBe('0123456789');
    // the bytes' backing memory is sized from the file: 20 concurrent reads used to hold 2 GB
    expect(read.buffer.byteLength).toBeLessThanOrEqual(64);
    await expect(readAttachmentFile(join(dir, 'big.txt'), { roots: [dir], maxBytes: 4096 })).rejects.toThrow('larger than');
    await expect(readAttachmentFile(join(dir, 'big.txt'), { roots: [dir], maxBytes: 5000 })).resolves.toHaveLength(5000);
  });
});
