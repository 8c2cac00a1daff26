/**
 * `progresscard watch` on the default folders of agents that have never run: with a fresh home
 * folder (no ~/.gemini, no ~/.codex) watch starts, and a session the agent then writes — creating
 * its folders on the way, as a first run does — is mirrored onto a card over the emulator.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledTraces } from '@progresscard/sources';
import { startEmulators } from '../src/channels/emulated.js';
import { feishuChannel } from '../src/channels/feishu.js';
import { runWatch } from '../src/commands/watch.js';
import { memoryIO } from './helpers.js';

const trace = (name: string) => bundledTraces().find((t) => t.name === name)!.path;
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('progresscard watch, default folders created after it started', () => {
  it('mirrors the first Gemini CLI and Codex sessions although ~/.gemini and ~/.codex did not exist at start', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pc-watch-home-'));
    cleanup.push(() => rmSync(home, { recursive: true, force: true }));
    const emulators = await startEmulators(['feishu']);
    cleanup.push(() => emulators.close());
    const feishu = emulators.emulator(feishuChannel)!;
    const env = Object.fromEntries(emulators.channel('feishu')!.env().map((line) => [line.name, line.value]));
    const { io, abort, out } = memoryIO(env);
    const statePath = join(home, '.progresscard', 'watch-state.json');
    const finished = runWatch({ home, statePath, idleMs: 1500, channels: ['feishu'], real: true, preview: false, port: 0, locale: 'en' }, io);
    cleanup.push(async () => {
      abort();
      await finished;
    });
    await expect.poll(out, { timeout: 30_000 }).toContain('following');

    // Gemini CLI's first run: ~/.gemini/tmp/<project hash>/chats/session-1.jsonl, all folders new.
    const chats = join(home, '.gemini', 'tmp', 'abc', 'chats');
    mkdirSync(chats, { recursive: true });
    copyFileSync(trace('gemini-chat-cancelled.jsonl'), join(chats, 'session-1.jsonl'));
    await expect.poll(() => feishu.messages().length, { timeout: 30_000 }).toBe(1);

    // Codex's first run: ~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl.
    const day = join(home, '.codex', 'sessions', '2026', '11', '30');
    mkdirSync(day, { recursive: true });
    copyFileSync(trace('codex-rollout-plain.jsonl'), join(day, 'rollout-2026-11-30T10-00-00-abc.jsonl'));
    await expect.poll(() => feishu.messages().length, { timeout: 30_000 }).toBe(2);
  }, 120_000);
});
