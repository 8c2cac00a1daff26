import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Helpers of the consumer test: run commands the way a user outside the repo would (no npm_*
 * variables of the repo's own `npm test`, no repo bin folders on PATH), extract the README's
 * agent sample, and talk to a standalone `progresscard emulator`.
 */

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The publishable packages, as workspace folders: every workspace of the root package.json whose
 * package is not private (read, not listed, so a new plugin is packed the day it is added).
 */
export const PACKAGE_DIRS: readonly string[] = publishableWorkspaces();

function publishableWorkspaces(): string[] {
  const root = JSON.parse(readFileSync(`${REPO_ROOT}package.json`, 'utf8')) as { workspaces: string[] };
  const folders = root.workspaces.flatMap((pattern) =>
    pattern.endsWith('/*')
      ? readdirSync(`${REPO_ROOT}${pattern.slice(0, -2)}`, { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => `${pattern.slice(0, -2)}/${entry.name}`)
          .sort()
      : [pattern],
  );
  return folders.filter((folder) => {
    const manifest = `${REPO_ROOT}${folder}/package.json`;
    return existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { private?: boolean }).private !== true;
  });
}

/** The repo's TypeScript compiler (a consumer would use its own; this one is pinned and installed). */
export const TSC = `${REPO_ROOT}node_modules/typescript/bin/tsc`;

/** The environment of a user's shell: this one without npm's lifecycle variables and the repo's bin folders. */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(name) || name === 'INIT_CWD' || name === 'NODE_OPTIONS' || name.startsWith('VITEST') || name === 'TEST') continue;
    env[name] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(':')
    .filter((dir) => !dir.startsWith(REPO_ROOT.replace(/\/$/, '')) && !dir.includes('/node_modules/.bin'))
    .join(':');
  return { ...env, NO_COLOR: '1', ...extra };
}

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end (killed after `timeoutMs`); never throws for a non-zero exit. */
export function run(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      stderr += `\n[consumer test] ${command} ${args.join(' ')} killed after ${options.timeoutMs} ms`;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Like {@link run}, but throws with the output when the command fails. */
export async function runOk(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<RunResult> {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} (in ${options.cwd}) exited ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
  }
  return result;
}

/** The first ```ts block under the README's "Use it in your agent product" heading, verbatim. */
export function readmeAgentSample(): string {
  const readme = readFileSync(`${REPO_ROOT}README.md`, 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Use it in your agent product'));
  const code = section && /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('README.md has no ```ts block under "## Use it in your agent product"');
  return code;
}

/** A standalone `npx progresscard emulator` and what it printed. */
export interface StandaloneEmulator {
  readonly process: ChildProcess;
  /** The `export NAME=value` lines it printed, as variables. */
  readonly env: Record<string, string>;
  /** Its live preview page; `GET <url>api/state` is the read-back of both emulators. */
  readonly previewUrl: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `npx progresscard emulator` on free ports in `cwd` and waits for its variables and preview URL. */
export async function startStandaloneEmulator(cwd: string): Promise<StandaloneEmulator> {
  // Own process group, so stopping it also stops the node process npx started.
  const child = spawn('npx', ['--no-install', 'progresscard', 'emulator', '--port', '0', '--preview-port', '0'], {
    cwd,
    env: userEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      const killTimer = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(killTimer);
    }
  };
  const deadline = Date.now() + 60_000;
  let previewUrl: string | undefined;
  while (!previewUrl) {
    previewUrl = /Live preview\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1];
    if (previewUrl) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`npx progresscard emulator did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const env: Record<string, string> = {};
  for (const match of out.matchAll(/^\s*export (\w+)=(\S+)/gm)) env[match[1]!] = match[2]!;
  return { process: child, env, previewUrl, output: () => out, stop };
}

/** One card of the read-back (`GET /api/state` of the standalone emulator's preview). */
export interface ReadBackCard {
  readonly id: string;
  readonly state: string;
  readonly html: string;
}

/** The cards each emulator holds now, by channel (`feishu`, `dingtalk`). */
export async function readBack(previewUrl: string): Promise<Record<string, ReadBackCard[]>> {
  const response = await fetch(`${previewUrl}api/state`);
  if (!response.ok) throw new Error(`GET ${previewUrl}api/state answered ${response.status}`);
  const state = (await response.json()) as { panels: { id: string; cards: ReadBackCard[] }[] };
  return Object.fromEntries(state.panels.map((p) => [p.id, p.cards]));
}
