/**
 * A channel plugin holds the app's credentials; nothing a product might log or dump about it may
 * show them: `util.inspect` (console.log of the plugin or the composition), `JSON.stringify`, or
 * an object spread of its transport.
 */
import { inspect } from 'node:util';
import { createProgressCards, silentLogger } from '@progresscard/core';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { feishu } from '@progresscard/plugin-feishu';
import { discord } from '@progresscard/plugin-discord';
import { slack } from '@progresscard/plugin-slack';
import { telegram } from '@progresscard/plugin-telegram';
import { wecom } from '@progresscard/plugin-wecom';
import { describe, expect, it } from 'vitest';

const SECRET = 'sEcReT-value-0123456789';

const plugins = {
  feishu: () => feishu({ appId: 'cli_secret_test', appSecret: SECRET, receiveId: 'oc_x' }),
  dingtalk: () =>
    dingtalk({ appKey: 'dingsecrettest', appSecret: SECRET, cardTemplateId: 't.schema', target: { type: 'group', openConversationId: 'cidX==' } }),
  slack: () => slack({ botToken: `xoxb-${SECRET}`, channel: 'C0123' }),
  // The webhook holds the bot token (to answer callback queries) and the secret_token it checks.
  telegram: () => telegram({ botToken: `123456789:${SECRET}`, chatId: -1001234567890, webhook: { secretToken: SECRET, port: 0 } }),
  discord: () => discord({ botToken: `${SECRET}.discord`, channelId: '1250000000000000100' }),
};

/** JSON.stringify that survives cycles (a cycle is written as "[cycle]"). */
function stringify(value: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'object' && v !== null) {
      if (seen.has(v)) return '[cycle]';
      seen.add(v);
    }
    return v;
  });
}

describe('credentials stay out of dumps', () => {
  for (const [name, make] of Object.entries(plugins)) {
    it(`${name}: util.inspect, JSON.stringify and a spread of the transport never show the secret (interaction too)`, () => {
      const plugin = make();
      const cards = createProgressCards({ channels: [plugin], logger: silentLogger, env: {} });
      for (const dump of [
        inspect(plugin, { depth: 10, showHidden: true }),
        inspect(cards, { depth: 10 }),
        stringify(plugin),
        stringify({ ...plugin.transport }),
        inspect(plugin.interaction, { depth: 10, showHidden: true }),
        stringify(plugin.interaction ?? null),
        stringify({ ...plugin }),
      ]) {
        expect(dump).not.toContain(SECRET);
      }
    });
  }
});

describe('WeCom: the callback Token and EncodingAESKey stay out of dumps', () => {
  // The callbacks hold the Token (signatures) and the EncodingAESKey (decryption); both must match
  // WeCom's alphabets, so they get secrets of their own.
  const token = 'sEcReTtoken0123456789';
  const encodingAESKey = 'sEcReTkey0123456789sEcReTkey0123456789abcde';
  it('util.inspect, JSON.stringify and spreads never show them', () => {
    const plugin = wecom({ token, encodingAESKey });
    const cards = createProgressCards({ channels: [plugin], logger: silentLogger, env: {} });
    const key = Buffer.from(`${encodingAESKey}=`, 'base64');
    for (const dump of [
      inspect(plugin, { depth: 10, showHidden: true }),
      inspect(cards, { depth: 10 }),
      stringify(plugin),
      stringify({ ...plugin.transport }),
      inspect(plugin.interaction, { depth: 10, showHidden: true }),
      stringify(plugin.interaction ?? null),
      stringify({ ...plugin }),
    ]) {
      expect(dump).not.toContain(token);
      expect(dump).not.toContain(encodingAESKey.slice(0, 20));
      expect(dump).not.toContain(key.toString('hex').slice(0, 16));
      expect(dump).not.toMatch(/\b115, 69, 99, 82\b/); // the key's first bytes as a Buffer inspect shows them
    }
  });
});
