import { open, stat } from 'node:fs/promises';

/** Where a tail stands in one file: its identity and the bytes consumed (up to the last complete line). */
export interface TailPosition {
  /** Inode of the file read (a new inode at the same path is a rotated file). */
  readonly ino: number;
  /** Bytes consumed: everything before ends with a newline. */
  readonly offset: number;
}

/** What one read of a file gave. */
export interface TailRead {
  /** Complete lines appended since the last read (without their newlines). */
  readonly lines: string[];
  /** True when the file was truncated or replaced since the last read: its lines start from byte 0. */
  readonly restarted: boolean;
  readonly position: TailPosition;
}

/** Most bytes read at once; a longer append is read in several rounds. */
const MAX_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Reads what was appended to `path` after `from`: only whole lines (a partial last line waits
 * for its newline, so the next read picks it up whole). A file now shorter than `from.offset`
 * (truncated) or with another inode (rotated: a new file at the path) is read from its start.
 * Bytes are split at `\n` before decoding, so a multi-byte character is never cut.
 * @throws the file system error (e.g. ENOENT when the file is gone).
 */
export async function readAppended(path: string, from: TailPosition | undefined): Promise<TailRead> {
  const info = await stat(path);
  const restarted = from !== undefined && (info.ino !== from.ino || info.size < from.offset);
  let offset = from && !restarted ? from.offset : 0;
  const lines: string[] = [];
  if (info.size <= offset) return { lines, restarted, position: { ino: info.ino, offset } };
  const handle = await open(path, 'r');
  try {
    let carry = Buffer.alloc(0);
    let position = offset;
    while (position < info.size) {
      const length = Math.min(MAX_CHUNK_BYTES, info.size - position);
      const chunk = Buffer.alloc(length);
      const { bytesRead } = await handle.read(chunk, 0, length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      let data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      let newline = data.indexOf(0x0a);
      while (newline >= 0) {
        const line = data.subarray(0, newline);
        lines.push(line.toString('utf8').replace(/\r$/, ''));
        offset += newline + 1;
        data = data.subarray(newline + 1);
        newline = data.indexOf(0x0a);
      }
      carry = Buffer.from(data);
    }
  } finally {
    await handle.close();
  }
  return { lines, restarted, position: { ino: info.ino, offset } };
}
