import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { EXIT, main, missingRealEnv, REAL_ENV_VARS } from '../src/index.js';
import { fixture, memoryIO } from './helpers.js';

const FEISHU_ENV = { FEISHU_APP_ID: 'cli_x', FEISHU_APP_SECRET: 's', FEISHU_CHAT_ID: 'oc_x' };

describe('--real without credentials', () => {
  it('names every missing variable and exits 2 before reading the trace or sending anything', async () => {
    const t = memoryIO({});
    // The trace does not exist: the env check must come first, so the error is about the env.
    const code = await main(['replay', 'does-not-exist.jsonl', '--real', '--json'], t.io);
    expect(code).toBe(EXIT.usage);
    for (const name of [...REAL_ENV_VARS.feishu, ...REAL_ENV_VARS.dingtalk]) expect(t.err()).toContain(name);
    expect(t.err()).not.toContain('does-not-exist');
    expect(t.out()).toBe('');
  });

  it('asks only for the chosen channel, and only for what is missing', async () => {
    const t = memoryIO({ ...FEISHU_ENV, FEISHU_APP_SECRET: '  ' });
    expect(await main(['demo', '--real'], t.io)).toBe(EXIT.usage);
    expect(t.err()).toContain('FEISHU_APP_SECRET');
    expect(t.err()).not.toContain('FEISHU_APP_ID,');
    expect(t.err()).toContain('DINGTALK_APP_KEY');

    const only = memoryIO({ FEISHU_APP_ID: 'cli_x' });
    expect(await main(['replay', 'x.jsonl', '--real', '--channel', 'feishu'], only.io)).toBe(EXIT.usage);
    expect(only.err()).toMatch(/FEISHU_APP_SECRET, FEISHU_CHAT_ID/);
    expect(only.err()).not.toContain('DINGTALK');
  });

  it('missingRealEnv treats empty values as missing', () => {
    expect(missingRealEnv(['feishu'], { ...FEISHU_ENV })).toEqual([]);
    expect(missingRealEnv(['feishu'], { ...FEISHU_ENV, FEISHU_CHAT_ID: '' })).toEqual(['FEISHU_CHAT_ID']);
  });
});

describe('--real against the emulators', () => {
  it('the variables the emulator command prints send a replay to those emulators, every channel', async () => {
    const emulator = memoryIO({});
    const running = main(['emulator', '--port', '0', '--no-preview'], emulator.io);
    let env: Record<string, string> = {};
    for (let i = 0; i < 100 && !env.DISCORD_API_URL; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      env = Object.fromEntries([...emulator.out().matchAll(/^\s+export ([A-Z_]+)=(\S+)/gm)].map((m) => [m[1]!, m[2]!]));
    }
    expect(Object.keys(env)).toEqual(expect.arrayContaining([...REAL_ENV_VARS.feishu, ...REAL_ENV_VARS.dingtalk, ...REAL_ENV_VARS.slack, ...REAL_ENV_VARS.telegram, ...REAL_ENV_VARS.discord, 'FEISHU_DOMAIN', 'DINGTALK_BASE_URL', 'SLACK_API_URL', 'TELEGRAM_API_ROOT', 'DISCORD_API_URL', 'WECOM_CALLBACK_PORT']));
    // The printed block can be pasted into a shell as it is.
    const block = emulator.out().split('\n').filter((line) => line.trim().startsWith('export ')).join('\n');
    const sourced = execFileSync('bash', ['-c', `${block}\nenv`], { encoding: 'utf8', env: {} });
    for (const [name, value] of Object.entries(env)) expect(sourced).toContain(`${name}=${value}\n`);
    try {
      const t = memoryIO(env);
      const code = await main(['replay', fixture('short-run.events.jsonl'), '--real', '--json', '--speed', '30'], t.io);
      expect(code, t.err()).toBe(EXIT.ok);
      const parsed = JSON.parse(t.out()) as { summary: { channels: { channel: string; statuses: string[] }[] } };
      expect(parsed.summary.channels.map((c) => [c.channel, c.statuses])).toEqual([
        ['feishu', ['completed']],
        ['dingtalk', ['completed']],
        ['slack', ['completed']],
        ['telegram', ['completed']],
        ['discord', ['completed']],
        ['wecom', ['completed']],
        ['teams', ['completed']],
      ]);
    } finally {
      emulator.abort();
      await running;
    }
  }, 30_000);
});
