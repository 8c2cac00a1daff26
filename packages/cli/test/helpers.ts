import { PassThrough } from 'node:stream';
import type { CliIO } from '../src/index.js';

/** An in-memory CLI IO: collects stdout/stderr as text; `abort()` plays Ctrl-C. */
export function memoryIO(env: Record<string, string | undefined> = {}) {
  const controller = new AbortController();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const io: CliIO = { stdout, stderr, env, signal: controller.signal };
  return {
    io,
    out: () => out,
    err: () => err,
    abort: () => controller.abort(new Error('test abort')),
  };
}

/** Fixture path inside this folder. */
export function fixture(name: string): string {
  return new URL(`./fixtures/${name}`, import.meta.url).pathname;
}
