import { randomBytes } from 'node:crypto';
import { describeChannelConformance, type ConformanceDriver, type ConformanceFault } from '@progresscard/core/testing/conformance';
import { startFeishuEmulator, type FaultResponse } from '@progresscard/emulator';
import { feishu, type FeishuHttpCallbacks } from '../src/index.js';

const VERIFICATION_TOKEN = 'v-token-1';
const ENCRYPT_KEY = 'encrypt-key-1';

/**
 * Feishu's answer to each fault: the app gateway limit is HTTP 429, code 99991400, with
 * `x-ogw-ratelimit-reset` seconds (https://open.feishu.cn/document/server-docs/api-call-guide/frequency-control);
 * 99991663 an invalid tenant_access_token; a 500 a transient error.
 */
function answer(fault: ConformanceFault): FaultResponse {
  switch (fault.kind) {
    case 'rate-limited':
      return { status: 429, body: { code: 99991400, msg: 'request trigger frequency limit' }, headers: { 'x-ogw-ratelimit-reset': String(Math.ceil(fault.retryAfterMs / 1000)) } };
    case 'auth':
      return { status: 200, body: { code: 99991663, msg: 'Invalid access token for authorization.' } };
    case 'transient':
      return { status: 500, body: { code: 1, msg: 'internal error' } };
    case 'not-modified':
      throw new Error('im.message.patch accepts a patch that changes nothing');
  }
}

/** Every text a card shows: each `content` and `text` string anywhere in it. */
function shownText(card: unknown): string {
  const texts: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if ((key === 'content' || key === 'text') && typeof inner === 'string') texts.push(inner);
        else walk(inner);
      }
    }
  };
  walk(card);
  return texts.join('\n');
}

const ROUTES = { send: 'im.message.create', update: 'im.message.patch' } as const;

const driver: ConformanceDriver = {
  name: 'feishu (emulator on loopback)',
  async start(setup) {
    const appId = `cli_${randomBytes(8).toString('hex')}`;
    const appSecret = `secret-${randomBytes(12).toString('hex')}`;
    const emulator = await startFeishuEmulator({ apps: [{ appId, appSecret }] });
    const plugin = feishu(
      {
        appId,
        appSecret,
        domain: emulator.baseUrl,
        receiveId: 'oc_team',
        // The driver maps send/update to the IM card's routes (create/patch): a patched IM card.
        // CardKit (the default mode) has its cases in platform-faults-cardkit.e2e.test.ts.
        mode: 'message',
        ...setup.timing,
        ...(setup.interaction ? { callbacks: { mode: 'http', port: 0, verificationToken: VERIFICATION_TOKEN, encryptKey: ENCRYPT_KEY } } : {}),
      },
      { env: {} },
    );
    return {
      plugin,
      messages: () =>
        emulator.messages().map((m) => ({
          id: m.messageId,
          text: shownText(m.card ?? m.content),
          calls: m.history.map((call) => ({ op: call.route === ROUTES.update ? 'update' : 'send', at: call.receivedAt ?? call.at, refused: call.outcome !== 'accepted' }) as const),
          ...(m.parentId === undefined ? {} : { replyTo: m.parentId }),
        })),
      fail: (op, fault, times = 1) => void emulator.faults.add({ route: ROUTES[op], times, respond: answer(fault) }),
      remove: (messageId) => void emulator.deleteMessage(messageId),
      maxInFlight: () => Math.max(0, ...emulator.messages().map((m) => m.maxConcurrentCalls)),
      ...(setup.interaction
        ? {
            async click({ messageId, user, control }) {
              const server = plugin.interaction as FeishuHttpCallbacks;
              if (server.url === undefined) throw new Error('the callback server is not listening');
              emulator.configureCallbacks({ url: server.url, verificationToken: VERIFICATION_TOKEN, encryptKey: ENCRYPT_KEY });
              const button = control.kind === 'choice' ? control.label : control.kind === 'stop' ? '⏹ Stop' : control.kind === 'approve' ? 'Approve' : 'Deny';
              // The button appears once the card's update lands; a click after it is gone (decided) is a no-op.
              const until = Date.now() + 3000;
              for (;;) {
                const result = await emulator.click({ messageId, user, button });
                if (result.error !== 'no-such-button' || Date.now() > until) return;
                await new Promise((resolve) => setTimeout(resolve, 50));
              }
            },
          }
        : {}),
      close: () => emulator.close(),
    };
  },
};

describeChannelConformance(driver);
