import { startFeishuEmulator } from '@progresscard/emulator';
import { describe, expect, it } from 'vitest';
import { doctorReport, type DoctorCheck } from '../src/index.js';
import { memoryIO } from './helpers.js';

const callbacksOf = (report: Awaited<ReturnType<typeof doctorReport>>, channel: string): DoctorCheck =>
  report.channels.find((c) => c.channel === channel)!.checks.find((c) => c.layer === 'callbacks')!;

const options = { emulator: true, json: true, explain: false, send: false } as const;

describe('progresscard doctor: do card callbacks reach the app', () => {
  it('without callbacks configured: a warning that open questions fall back to the reply to type, with the setup steps', async () => {
    const { io } = memoryIO({});
    const report = await doctorReport({ ...options, channels: ['feishu', 'dingtalk'] }, io);
    for (const channel of ['feishu', 'dingtalk']) {
      const check = callbacksOf(report, channel);
      expect(check).toMatchObject({ status: 'warn', summary: expect.stringContaining('reply to type (e.g. `/approve 3F2A`)') });
    }
    expect(callbacksOf(report, 'feishu').details.join('\n')).toContain('card.action.trigger');
  });

  it('Feishu long connection and DingTalk Stream mode: the SDKs connect to the emulators and the check passes', async () => {
    const { io } = memoryIO({ FEISHU_CALLBACKS: 'long-connection', DINGTALK_CALLBACKS: 'stream' });
    const report = await doctorReport({ ...options, channels: ['feishu', 'dingtalk'] }, io);
    expect(callbacksOf(report, 'feishu')).toMatchObject({ status: 'pass', summary: expect.stringContaining('Feishu accepted it') });
    expect(callbacksOf(report, 'dingtalk')).toMatchObject({ status: 'pass', summary: expect.stringContaining('gateway ticket accepted') });
  });

  it('a long connection Feishu refuses fails the layer with the platform code, and says cards fall back to the reply to type', async () => {
    // An app that already holds every connection Feishu allows (50 per app; none here).
    const emulator = await startFeishuEmulator({ longConnection: { maxConnections: 0 } });
    try {
      const [app] = emulator.apps;
      const { io } = memoryIO({ FEISHU_APP_ID: app!.appId, FEISHU_APP_SECRET: app!.appSecret, FEISHU_CHAT_ID: 'oc_doctor', FEISHU_DOMAIN: emulator.baseUrl, FEISHU_CALLBACKS: 'long-connection' });
      const report = await doctorReport({ ...options, emulator: false, channels: ['feishu'] }, io);
      const check = callbacksOf(report, 'feishu');
      expect(check.status).toBe('fail');
      expect(check.summary).toMatch(/card callbacks cannot reach the app: Feishu refused the long connection: .*code=1000040350.*reply to type/);
      expect(report.ok).toBe(false);
    } finally {
      await emulator.close();
    }
  });

  it('a bad FEISHU_CALLBACKS value fails the config layer naming the variable', async () => {
    const { io } = memoryIO({ FEISHU_CALLBACKS: 'websocket' });
    const report = await doctorReport({ ...options, channels: ['feishu'] }, io);
    const config = report.channels[0]!.checks.find((c) => c.layer === 'config')!;
    expect(config).toMatchObject({ status: 'fail', summary: expect.stringContaining('FEISHU_CALLBACKS') });
  });

  it('HTTP callbacks without verification: the listener starts but the layer warns, naming the variables that turn it on', async () => {
    const { io } = memoryIO({ FEISHU_CALLBACKS: 'http:0' });
    const report = await doctorReport({ ...options, channels: ['feishu'] }, io);
    expect(callbacksOf(report, 'feishu')).toMatchObject({ status: 'warn', summary: expect.stringMatching(/without verification.*FEISHU_CALLBACK_VERIFICATION_TOKEN/) });
    const { io: signedIo } = memoryIO({ FEISHU_CALLBACKS: 'http:0', FEISHU_CALLBACK_ENCRYPT_KEY: 'e-key' });
    const signed = await doctorReport({ ...options, channels: ['feishu'] }, signedIo);
    expect(callbacksOf(signed, 'feishu').status).toBe('pass');
  });
});
