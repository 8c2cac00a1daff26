import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('the progresscard command', () => {
  it('stops quietly when its reader closes the pipe early (`progresscard --help | head -3`)', async () => {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'packages/cli/src/bin.ts', '--help'], {
      cwd: ROOT,
      env: { ...process.env, TSX_TSCONFIG_PATH: 'tsconfig.base.json' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader is gone before the help is written: the write fails with EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
  }, 60_000);
});
