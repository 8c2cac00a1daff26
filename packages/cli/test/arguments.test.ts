import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT, main } from '../src/index.js';
import { fixture, memoryIO } from './helpers.js';

describe('argument handling', () => {
  it('rejects a bad --speed, naming the option and the value, before doing anything', async () => {
    const t = memoryIO();
    const code = await main(['replay', fixture('short-run.events.jsonl'), '--speed', 'fast'], t.io);
    expect(code).toBe(EXIT.usage);
    expect(t.err()).toContain("'--speed <n>'");
    expect(t.err()).toContain("'fast'");
    expect(t.err()).toMatch(/greater than 0/);
    expect(t.out()).toBe('');
  });

  it.each([['0'], ['-2'], ['NaN']])('rejects --speed %s', async (value) => {
    const t = memoryIO();
    expect(await main(['demo', '--speed', value, '--no-preview'], t.io)).toBe(EXIT.usage);
    expect(t.err()).toContain(`'${value}'`);
  });

  it('rejects a bad --port, --channel, --lang and --format, each naming itself', async () => {
    const cases: Array<[string[], string]> = [
      [['demo', '--port', '70000'], '--port'],
      [['replay', 'x.jsonl', '--channel', 'mattermost'], '--channel'],
      [['replay', 'x.jsonl', '--lang', 'fr'], '--lang'],
      [['replay', 'x.jsonl', '--format', 'yaml'], '--format'],
      [['replay', 'x.jsonl', '--max-gap', '1.5s'], '--max-gap'],
    ];
    for (const [argv, option] of cases) {
      const t = memoryIO();
      expect(await main(argv, t.io), argv.join(' ')).toBe(EXIT.usage);
      expect(t.err()).toContain(option);
      expect(t.err()).toContain(`'${argv[argv.length - 1]}'`);
    }
  });

  it('names an unknown trace and lists the bundled ones', async () => {
    const t = memoryIO();
    expect(await main(['replay', 'no-such-trace.jsonl', '--no-preview'], t.io)).toBe(EXIT.usage);
    expect(t.err()).toContain('no-such-trace.jsonl');
    expect(t.err()).toContain('claude-session-parallel-tasks.jsonl');
  });

  it('prints help for every command with exit code 0', async () => {
    for (const argv of [['--help'], ['demo', '--help'], ['replay', '--help'], ['emulator', '--help']]) {
      const t = memoryIO();
      expect(await main(argv, t.io)).toBe(EXIT.ok);
      expect(t.out()).toMatch(/Usage: progresscard/);
    }
    const replay = memoryIO();
    await main(['replay', '--help'], replay.io);
    for (const option of ['--format', '--channel', '--speed', '--max-gap', '--lang', '--json', '--real', '--no-preview']) {
      expect(replay.out()).toContain(option);
    }
    expect(replay.out()).toContain('DINGTALK_OPEN_CONVERSATION_ID');
  });

  it('replay --help describes every trace format --format accepts, one line each', async () => {
    const replay = memoryIO();
    await main(['replay', '--help'], replay.io);
    const section = replay.out().split('Trace formats (--format):\n')[1]!.split('\n\n')[0]!;
    const listed = section.split('\n').map((line) => line.trim().split(/\s+/)[0]);
    // The choices commander prints for --format, but the automatic detection.
    const choices = [...replay.out().matchAll(/"([a-z-]+)"/g)].map((m) => m[1]).filter((choice) => choice !== 'auto');
    expect(choices.length).toBeGreaterThanOrEqual(11);
    expect(listed).toEqual(choices);
    for (const agent of ['Claude Code', 'Codex', 'Gemini CLI', 'cursor-agent', 'OpenCode', 'Copilot CLI', 'OpenHands', 'progresscard events']) expect(section).toContain(agent);
  });

  it.each([['abc'], ['0'], ['-5'], ['1.5']])('watch rejects --idle %s, naming --idle (a positive number of ms)', async (value) => {
    const t = memoryIO();
    expect(await main(['watch', '--idle', value, '--no-preview'], t.io)).toBe(EXIT.usage);
    expect(t.err()).toContain("'--idle <ms>'");
    expect(t.err()).toContain(`'${value}'`);
    expect(t.err()).toContain('e.g. --idle');
    expect(t.err()).not.toContain('--max-gap');
  });

  it('watch exits 2 naming each given folder that does not exist, before starting anything', async () => {
    const existing = mkdtempSync(join(tmpdir(), 'progresscard-watch-'));
    try {
      const t = memoryIO();
      const argv = ['watch', '--dir', existing, '--dir', '/nonexistent/traces', '--codex', '/nonexistent/codex', '--no-preview', '--state', join(existing, 'state.json')];
      expect(await main(argv, t.io)).toBe(EXIT.usage);
      expect(t.err()).toContain('no such folder: --codex /nonexistent/codex, --dir /nonexistent/traces');
      expect(t.err()).not.toContain(existing);
      expect(t.out()).toBe('');
    } finally {
      rmSync(existing, { recursive: true, force: true });
    }
  });

  it('rejects an unknown command', async () => {
    const t = memoryIO();
    expect(await main(['deploy'], t.io)).toBe(EXIT.usage);
    expect(t.err()).toContain("unknown command 'deploy'");
  });
});
