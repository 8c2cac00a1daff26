import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readAppended } from '../src/watch/file-tail.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pc-tail-'));
  dirs.push(dir);
  return join(dir, 'session.jsonl');
}

describe('readAppended', () => {
  it('gives only whole lines: a partial last line waits for its newline, multi-byte text intact', async () => {
    const file = tempFile();
    writeFileSync(file, '{"a":1}\n{"text":"你好');
    const first = await readAppended(file, undefined);
    expect(first.lines).toEqual(['{"a":1}']);
    appendFileSync(file, '世界"}\n');
    const second = await readAppended(file, first.position);
    expect(second.lines).toEqual(['{"text":"你好世界"}']);
    expect(second.restarted).toBe(false);
    expect((await readAppended(file, second.position)).lines).toEqual([]);
  });

  it('reads a truncated file from its start', async () => {
    const file = tempFile();
    writeFileSync(file, 'one\ntwo\nthree\n');
    const first = await readAppended(file, undefined);
    writeFileSync(file, 'new\n');
    const second = await readAppended(file, first.position);
    expect(second).toMatchObject({ lines: ['new'], restarted: true });
  });

  it('reads a rotated file (a new file at the same path) from its start', async () => {
    const file = tempFile();
    writeFileSync(file, 'old one\nold two\n');
    const first = await readAppended(file, undefined);
    renameSync(file, `${file}.1`);
    writeFileSync(file, 'fresh one\nfresh two\nfresh three\n');
    const second = await readAppended(file, first.position);
    expect(second).toMatchObject({ lines: ['fresh one', 'fresh two', 'fresh three'], restarted: true });
  });
});
