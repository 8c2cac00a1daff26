import { describe, expect, it } from 'vitest';
import { CHANNEL_IDS, DOCTOR_LAYERS, doctorReport, main, type AnyChannelPlugin, type DoctorReport } from '../src/index.js';
import { memoryIO } from './helpers.js';

const parse = (text: string) => JSON.parse(text) as DoctorReport;

describe('progresscard doctor', () => {
  it('--emulator --json: every layer of both channels passes and the exit code is 0', async () => {
    const { io, out } = memoryIO({});
    const code = await main(['doctor', '--emulator', '--json'], io);
    const report = parse(out());
    expect(report.ok).toBe(true);
    expect(code).toBe(0);
    expect(report.mode).toBe('emulator');
    expect(report.channels.map((c) => c.channel)).toEqual([...CHANNEL_IDS]);
    for (const channel of report.channels) {
      expect(channel.checks.map((c) => c.layer)).toEqual(DOCTOR_LAYERS);
      expect(channel.checks.every((c) => c.status === 'pass' || c.status === 'warn')).toBe(true);
    }
    // The DingTalk monthly quota shows in the budget figures and as a warning; each streaming
    // update is two requests (instance PUT + streaming PUT), so a 10-minute run spends 2 × 200 + 4.
    const dingtalk = report.channels.find((c) => c.channel === 'dingtalk')!;
    expect(dingtalk.plan).toMatchObject({ freshRuns: 57, callsPerRun: 404, runsPerMonth: 12 });
    expect(report.warnings).toContainEqual(expect.objectContaining({ channel: 'dingtalk', layer: 'budget' }));
    // The two numbers do not run together ("about 12 10-minute runs").
    expect(dingtalk.checks.find((c) => c.layer === 'budget')!.summary).toMatch(/; about 12 runs of 10 minutes a month$/);
  });

  it('a missing variable fails the config layer, names the variable (never a value) and exits 1', async () => {
    const { io, out } = memoryIO({ FEISHU_APP_ID: 'cli_x', FEISHU_APP_SECRET: 'super-secret-value' });
    const code = await main(['doctor', '--channel', 'feishu'], io);
    expect(code).toBe(1);
    expect(out()).toMatch(/❌ config\s+missing FEISHU_CHAT_ID/);
    expect(out()).toContain('doctor: failed (feishu/config)');
    expect(out()).not.toContain('super-secret-value');
  });

  it('reports every bad value of the config in one run, each naming its variable and value, and exits 1', async () => {
    const env = {
      FEISHU_APP_ID: 'cli_x',
      FEISHU_APP_SECRET: 'super-secret-value',
      FEISHU_CHAT_ID: 'oc_x',
      FEISHU_DOMAIN: 'larksuite',
      FEISHU_CARD_MODE: 'stream',
      FEISHU_CALLBACKS: 'http:abc',
      FEISHU_CALLBACK_VERIFICATION_TOKEN: 'token-value',
      FEISHU_CARD_PROGRESSIVE: 'maybe',
    };
    const { io, out } = memoryIO(env);
    const code = await main(['doctor', '--channel', 'feishu', '--no-send'], io);
    expect(code).toBe(1);
    const text = out();
    expect(text).toMatch(/❌ config\s+4 bad values/);
    expect(text).toContain('FEISHU_DOMAIN) = "larksuite" (expected feishu (open.feishu.cn, the default), lark (open.larksuite.com) or an http(s) base URL');
    expect(text).toContain('FEISHU_CARD_MODE) = "stream"');
    expect(text).toContain('FEISHU_CALLBACKS) = "http:abc"');
    expect(text).toContain('FEISHU_CARD_PROGRESSIVE) = "maybe" (expected on or off)');
    // The verification token is tried with FEISHU_CALLBACKS, not alone: no "needs FEISHU_CALLBACKS set as well".
    expect(text).not.toContain('set as well');
    expect(text).not.toContain('super-secret-value');
    expect(text).not.toContain('token-value');
    expect(text).toContain('doctor: failed (feishu/config)');
  });

  it('one bad value is the config line itself', async () => {
    const { io, out } = memoryIO({ FEISHU_APP_ID: 'cli_x', FEISHU_APP_SECRET: 's', FEISHU_CHAT_ID: 'oc_x', FEISHU_DOMAIN: 'Lark' });
    expect(await main(['doctor', '--channel', 'feishu', '--no-send'], io)).toBe(1);
    expect(out()).toMatch(/❌ config\s+feishu domain \(FEISHU_DOMAIN\) = "Lark" \(expected feishu/);
  });

  it('a broken renderer fails the renderer layer and skips the delivery', async () => {
    const { io } = memoryIO({});
    const breakRenderer = (plugin: AnyChannelPlugin): AnyChannelPlugin => ({
      ...plugin,
      renderer: { ...plugin.renderer, render: () => ({ elements: [] }) },
    });
    const report = await doctorReport({ channels: ['feishu', 'dingtalk', 'slack'], emulator: true, json: true, explain: false, send: true, plugin: breakRenderer }, io);
    expect(report.ok).toBe(false);
    for (const channel of report.channels) {
      const layers = Object.fromEntries(channel.checks.map((c) => [c.layer, c.status]));
      expect(layers).toMatchObject({ config: 'pass', credentials: 'pass', renderer: 'fail', delivery: 'skip' });
    }
    const feishu = report.channels[0]!.checks.find((c) => c.layer === 'renderer')!;
    expect(feishu.details.join('\n')).toContain('not "2.0"');
    const dingtalk = report.channels[1]!.checks.find((c) => c.layer === 'renderer')!;
    expect(dingtalk.details.join('\n')).toContain('no cardParamMap');
    const slack = report.channels[2]!.checks.find((c) => c.layer === 'renderer')!;
    expect(slack.details.join('\n')).toContain('no notification text');
  });

  it('a switch from the environment shows as a warning (progressive updates off)', async () => {
    const { io, out } = memoryIO({ FEISHU_CARD_PROGRESSIVE: 'off' });
    const code = await main(['doctor', '--emulator', '--channel', 'feishu', '--json'], io);
    const report = parse(out());
    expect(code).toBe(0);
    expect(report.warnings).toContainEqual({ channel: 'feishu', layer: 'switches', message: 'progressive updates are off: one card is sent at the final only' });
  });
});
