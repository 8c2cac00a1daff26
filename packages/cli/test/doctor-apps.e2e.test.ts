import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_FEISHU_APP, startFeishuEmulator, type FeishuEmulator } from '@progresscard/emulator';
import { doctorReport } from '../src/index.js';
import { memoryIO } from './helpers.js';

/**
 * `progresscard doctor` with several apps of one channel (`FEISHU_APP_ID_2`…, the `appsFromEnv`
 * convention): each app is checked as a channel of its own, against a Feishu emulator that knows
 * two apps.
 */
let emulator: FeishuEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const SECOND = { appId: 'cli_second_app', appSecret: 'second-app-secret' };

/** Apps 1 and 2 of the emulator's Feishu; app 2 takes app 1's domain: only its identity, secret and chat are its own. */
const twoApps = (domain: string) => ({
  FEISHU_APP_ID: DEFAULT_FEISHU_APP.appId,
  FEISHU_APP_SECRET: DEFAULT_FEISHU_APP.appSecret,
  FEISHU_CHAT_ID: 'oc_doctor',
  FEISHU_DOMAIN: domain,
  FEISHU_APP_ID_2: SECOND.appId,
  FEISHU_APP_SECRET_2: SECOND.appSecret,
  FEISHU_CHAT_ID_2: 'oc_doctor',
});

describe('progresscard doctor with several apps', () => {
  it('checks each app: the accepted ones pass, refused credentials and a missing secret fail under their app', async () => {
    emulator = await startFeishuEmulator({ port: 0, apps: [DEFAULT_FEISHU_APP, SECOND] });
    const { io, out } = memoryIO({
      ...twoApps(emulator.baseUrl),
      FEISHU_APP_ID_3: 'cli_unknown_app',
      FEISHU_APP_SECRET_3: 'wrong-secret',
      FEISHU_CHAT_ID_3: 'oc_doctor',
      FEISHU_APP_ID_4: 'cli_fourth_app',
    });
    const report = await doctorReport({ channels: ['feishu'], emulator: false, json: true, explain: false, send: false }, io);
    expect(report.channels.map((c) => [c.channel, c.label, c.ok])).toEqual([
      ['feishu-app1', 'Feishu / Lark app 1', true],
      ['feishu-app2', 'Feishu / Lark app 2', true],
      ['feishu-app3', 'Feishu / Lark app 3', false],
      ['feishu-app4', 'Feishu / Lark app 4', false],
    ]);
    const layer = (channel: string, name: string) => report.channels.find((c) => c.channel === channel)!.checks.find((c) => c.layer === name)!;
    expect(layer('feishu-app2', 'credentials').status).toBe('pass');
    expect(layer('feishu-app3', 'credentials').status).toBe('fail');
    expect(layer('feishu-app4', 'config').summary).toContain('missing FEISHU_APP_SECRET_4, FEISHU_CHAT_ID_4');
    // Each app's config line names the variables that app is read from: app 2's own, and app 1's domain it shares.
    expect(layer('feishu-app1', 'config').summary).toBe('FEISHU_APP_ID, FEISHU_APP_SECRET, FEISHU_CHAT_ID, FEISHU_DOMAIN set; config valid');
    expect(layer('feishu-app2', 'config').summary).toBe("FEISHU_APP_ID_2, FEISHU_APP_SECRET_2, FEISHU_CHAT_ID_2, FEISHU_DOMAIN (app 1's) set; config valid");
    expect(out()).not.toContain('second-app-secret');
    expect(JSON.stringify(report)).not.toContain('wrong-secret');
  });

  it("names app 2's own variable when its config is invalid", async () => {
    emulator = await startFeishuEmulator({ port: 0, apps: [DEFAULT_FEISHU_APP, SECOND] });
    const { io } = memoryIO({ ...twoApps(emulator.baseUrl), FEISHU_CARD_MODE_2: 'sideways' });
    const report = await doctorReport({ channels: ['feishu'], emulator: false, json: true, explain: false, send: false }, io);
    const config = report.channels.find((c) => c.channel === 'feishu-app2')!.checks.find((c) => c.layer === 'config')!;
    expect(config.status).toBe('fail');
    expect(config.summary).toContain('FEISHU_CARD_MODE_2');
    expect(config.summary).not.toMatch(/FEISHU_CARD_MODE\b(?!_2)/);
  });
});
