import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT, main } from '../src/index.js';
import { fixture, memoryIO } from './helpers.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(REPO, 'packages/cli/bin/progresscard.js');

/** Runs a command to its end; never throws for a non-zero exit. */
function run(command: string, args: readonly string[], cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', VITEST: undefined, VITEST_WORKER_ID: undefined, VITEST_POOL_ID: undefined, NODE_OPTIONS: undefined }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

const work = mkdtempSync(join(tmpdir(), 'progresscard-new-channel-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('progresscard new-channel', () => {
  it('writes a plugin package that builds, passes its own conformance suite unmodified, and drives the CLI', async () => {
    const t = memoryIO({});
    expect(await main(['new-channel', 'acme-chat', '--dir', 'acme'], { ...t.io, cwd: work })).toBe(EXIT.ok);
    expect(t.out()).toContain('npm test');
    const dir = join(work, 'acme');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string> };
    expect(pkg.name).toBe('progresscard-plugin-acme-chat');
    expect(readFileSync(join(dir, 'src/plugin.ts'), 'utf8')).toContain("id: 'acme-chat'");
    // the repo's installed packages stand in for `npm install` (the consumer test installs the tarballs)
    symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');

    const build = await run(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], dir);
    expect(build.code, build.out).toBe(0);
    const tests = await run(process.execPath, [join(REPO, 'node_modules/vitest/vitest.mjs'), 'run'], dir);
    expect(tests.code, tests.out).toBe(0);
    expect(tests.out).toMatch(/Tests\s+\d+ passed/);

    const replay = await run(process.execPath, [BIN, 'replay', fixture('short-run.events.jsonl'), '--channel', 'acme-chat', '--json', '--speed', '30'], dir);
    expect(replay.code, replay.out).toBe(0);
    expect(replay.out).toContain('"channel": "acme-chat"');
    expect(replay.out).toContain('race');
  }, 300_000);

  it('refuses a name that is not a channel id, and a folder that is not empty', async () => {
    const bad = memoryIO({});
    expect(await main(['new-channel', 'Acme Chat'], { ...bad.io, cwd: work })).toBe(EXIT.usage);
    expect(bad.err()).toContain('got "Acme Chat"');
    const first = memoryIO({});
    expect(await main(['new-channel', 'beta', '--dir', 'beta'], { ...first.io, cwd: work })).toBe(EXIT.ok);
    const again = memoryIO({});
    expect(await main(['new-channel', 'beta', '--dir', 'beta'], { ...again.io, cwd: work })).toBe(EXIT.usage);
    expect(again.err()).toContain('exists and is not empty');
  });
});
