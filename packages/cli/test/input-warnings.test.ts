import { describe, expect, it } from 'vitest';
import { channelList, main, type DoctorReport } from '../src/index.js';
import { memoryIO } from './helpers.js';

const TELEGRAM = { TELEGRAM_BOT_TOKEN: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ', TELEGRAM_CHAT_ID: '-1001234567890' };

/** `doctor --emulator --no-send --json` over `env` for `argv`'s channels: against the embedded emulators, nothing sent. */
async function doctor(argv: readonly string[], env: Record<string, string>, emulator = true): Promise<{ code: number; report: DoctorReport }> {
  const { io, out } = memoryIO(env);
  const code = await main(['doctor', ...(emulator ? ['--emulator'] : []), '--no-send', '--json', ...argv], io);
  return { code, report: JSON.parse(out()) as DoctorReport };
}

describe('CLI input the user gets wrong is said, not dropped', () => {
  it('--channel given twice takes both channels (before, only the last one was checked)', async () => {
    const { report } = await doctor(['--channel', 'telegram', '--channel', 'discord'], TELEGRAM);
    expect(report.channels.map((c) => c.channel)).toEqual(['telegram', 'discord']);
    const again = await doctor(['--channel', 'telegram', '--channel', 'telegram'], TELEGRAM);
    expect(again.report.channels.map((c) => c.channel)).toEqual(['telegram']);
    const one = await doctor(['--channel', 'telegram'], TELEGRAM);
    expect(one.report.channels.map((c) => c.channel)).toEqual(['telegram']);
  });

  it('doctor warns of a misspelt switch variable, naming the closest known one', async () => {
    const env = { DISCORD_CARD_FOOTER: 'debug', DISCORD_CARD_PROGRESIVE: 'off' };
    const { report } = await doctor(['--channel', 'discord'], env);
    const config = report.channels[0]!.checks[0]!;
    expect(config).toMatchObject({ layer: 'config', status: 'warn' });
    expect(config.details).toEqual([
      'unknown variable DISCORD_CARD_FOOTER is ignored (did you mean DISCORD_CARD_FOOTER_STYLE?)',
      'unknown variable DISCORD_CARD_PROGRESIVE is ignored (did you mean DISCORD_CARD_PROGRESSIVE?)',
    ]);
    expect(report.warnings).toContainEqual(expect.objectContaining({ channel: 'discord', layer: 'config', message: expect.stringContaining('DISCORD_CARD_FOOTER_STYLE') }));
  });

  it('doctor warns of a misspelt config variable too, and of none the channel reads or other tools use', async () => {
    const typo = await doctor(['--channel', 'telegram'], { ...TELEGRAM, TELEGRAM_CHAT_IDS: '1' });
    expect(typo.report.channels[0]!.checks[0]!.details).toEqual(['unknown variable TELEGRAM_CHAT_IDS is ignored (did you mean TELEGRAM_CHAT_ID?)']);
    // Every variable a channel documents (its stand-ins, switches, tick) and other tools' names pass quietly.
    for (const descriptor of channelList()) {
      const prefix = descriptor.id.toUpperCase();
      const env = { ...(descriptor.real.standIns ?? {}), [`${prefix}_CARD_PROGRESSIVE`]: 'on', [`${prefix}_CARD_TOOL_TICK_MS`]: '3000', [`${prefix}_SIGNING_SECRET`]: 'x' } as Record<string, string>;
      for (const variable of descriptor.real.optionalEnv) env[variable.name] ??= 'x';
      const { report } = await doctor(['--channel', descriptor.id], env);
      const details = report.channels.flatMap((c) => c.checks[0]!.details);
      expect(details.filter((line) => line.startsWith('unknown variable')), descriptor.id).toEqual([]);
    }
  });

  it('a bad Telegram chat id says what a chat id looks like, not "(Invalid input)"', async () => {
    // Not against the emulator, whose chat id would stand in; the config fails before anything is sent.
    const { code, report } = await doctor(['--channel', 'telegram'], { ...TELEGRAM, TELEGRAM_CHAT_ID: 'general' }, false);
    expect(code).toBe(1);
    const config = report.channels[0]!.checks[0]!;
    expect(config.summary).not.toContain('Invalid input');
    expect(config.summary).toContain('chatId (TELEGRAM_CHAT_ID) = "general"');
    expect(config.summary).toMatch(/-100.*@channelname/);
  });
});
