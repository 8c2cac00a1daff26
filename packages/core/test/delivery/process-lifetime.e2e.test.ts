import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../../', import.meta.url));

describe('process lifetime', () => {
  it('a failing final is retried and reported even when nothing else keeps Node alive', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', '--conditions=source', fileURLToPath(new URL('../fixtures/final-keeps-process-alive.ts', import.meta.url))],
      { cwd: root, env: { ...process.env, TSX_TSCONFIG_PATH: 'tsconfig.base.json' }, timeout: 30_000 },
    );
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { ok: boolean; attempts: number; calls: number };
    expect(result.ok).toBe(false);
    expect(result.attempts).toBeGreaterThanOrEqual(4);
  }, 40_000);

  it('await cards.idle() resolves although the refreshes it waits for are due on timers that alone would not keep Node alive', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', '--conditions=source', fileURLToPath(new URL('../fixtures/idle-keeps-process-alive.ts', import.meta.url))],
      { cwd: root, env: { ...process.env, TSX_TSCONFIG_PATH: 'tsconfig.base.json' }, timeout: 30_000 },
    );
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { idle: boolean; calls: number };
    expect(result).toEqual({ idle: true, calls: 2 });
  }, 40_000);
});
