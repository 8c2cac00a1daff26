import { startFeishuEmulator, type FeishuEmulatorOptions } from '@progresscard/emulator';
import { describe, expect, it } from 'vitest';
import { doctorReport, type DoctorCheck, type DoctorReport } from '../src/index.js';
import { memoryIO } from './helpers.js';

const layerOf = (report: DoctorReport, layer: string): DoctorCheck => report.channels[0]!.checks.find((c) => c.layer === layer)!;

/** `doctor --channel feishu` against a Feishu emulator whose app lacks `options.missingScopes`. */
async function doctorOnFeishu(options: FeishuEmulatorOptions, env: Record<string, string> = {}, send = false) {
  const emulator = await startFeishuEmulator(options);
  try {
    const [app] = emulator.apps;
    const { io } = memoryIO({ FEISHU_APP_ID: app!.appId, FEISHU_APP_SECRET: app!.appSecret, FEISHU_CHAT_ID: 'oc_doctor', FEISHU_DOMAIN: emulator.baseUrl, ...env });
    const report = await doctorReport({ emulator: false, json: true, explain: false, send, channels: ['feishu'] }, io);
    return { report, messages: emulator.messages() };
  } finally {
    await emulator.close();
  }
}

describe('progresscard doctor: the Feishu CardKit scope', () => {
  it('an app with cardkit:card:write passes: its cards are CardKit cards whose answer types itself out', async () => {
    const { report } = await doctorOnFeishu({});
    expect(layerOf(report, 'scopes')).toMatchObject({ status: 'pass', summary: expect.stringContaining('holds cardkit:card:write') });
  });

  it('an app without it warns, names the scope and says cards fall back to plain patched card messages; the test card is still delivered, completed', async () => {
    const { report, messages } = await doctorOnFeishu({ missingScopes: ['cardkit:card:write'] }, {}, true);
    const scopes = layerOf(report, 'scopes');
    expect(scopes.status).toBe('warn');
    expect(scopes.summary).toMatch(/lacks cardkit:card:write \(the tenant has not granted it\): cards go out as plain interactive card messages, patched in place/);
    expect(scopes.details.join('\n')).toContain('FEISHU_CARD_MODE=message');
    expect(report.ok).toBe(true);
    expect(report.warnings).toContainEqual(expect.objectContaining({ channel: 'feishu', layer: 'scopes' }));
    expect(layerOf(report, 'delivery').status).not.toBe('fail');
    expect(messages).toHaveLength(1);
    expect(messages[0]!.cardId).toBeUndefined();
    expect(messages[0]!.card).toMatchObject({ header: { template: 'green' } });
  });

  it('with FEISHU_CARD_MODE=message no CardKit scope is needed, even when the app lacks it', async () => {
    const { report } = await doctorOnFeishu({ missingScopes: ['cardkit:card:write'] }, { FEISHU_CARD_MODE: 'message' });
    expect(layerOf(report, 'scopes')).toMatchObject({ status: 'pass', summary: expect.stringContaining('no CardKit scope needed') });
  });

  it('on the emulators every channel has a scopes line, and the Feishu one passes', async () => {
    const { io } = memoryIO({});
    const report = await doctorReport({ emulator: true, json: true, explain: false, send: false, channels: ['feishu', 'slack'] }, io);
    expect(report.channels.map((c) => c.checks.find((check) => check.layer === 'scopes')?.status)).toEqual(['pass', 'pass']);
  });
});
