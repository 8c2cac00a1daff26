import { checkFeishuCardContent, DEFAULT_FEISHU_APP, startFeishuEmulator, type FeishuEmulator } from '@progresscard/emulator';
import { MissingEnvError } from '@progresscard/core';
import { FEISHU_ENV_VARIABLES, feishu, FeishuConfigError, type FeishuHttpCallbacks, type FeishuPlugin } from '@progresscard/plugin-feishu';
import { CliUsageError } from '../errors.js';
import { feishuTemplate, renderFeishuMessage } from '../preview/render-feishu.js';
import type { ChannelDescriptor, Env } from './descriptor.js';
import { postJson, stringsIn } from './doctor-support.js';
import { checkFeishuScopes } from './feishu-scopes.js';

/** The chat the demo's Feishu cards go to (any `oc_…` id is a chat to the emulator). */
export const EMULATED_FEISHU_CHAT_ID = 'oc_progresscarddemo';

/**
 * The verification token the emulated channel and its emulator share: the emulator sends it with
 * every card callback (`header.token`) and the plugin refuses a callback without it, as on Feishu,
 * so the emulated callbacks are verified and the plugin has no "without verification" warning.
 */
const EMULATED_CALLBACK_TOKEN = 'progresscard-emulator-verification-token';

/**
 * Feishu rate-limit answers: 99991400, the gateway's frequency control (HTTP 429;
 * https://open.feishu.cn/document/server-docs/api-call-guide/frequency-control), and 230020, the
 * per-message / per-chat frequency limit of sending and patching messages
 * (https://open.larkoffice.com/document/uAjLw4CM/ukTMukTMukTM/reference/im-v1/message/patch).
 */
const FEISHU_RATE_LIMIT_CODES = new Set([99991400, 230020]);

/**
 * `FEISHU_CARD_MODE` for the emulated channel too (`message` or `cardkit`; the real channel reads it
 * through `feishu.fromEnv`): without it the plugin's default, CardKit entities whose answer types out;
 * with `message` patched IM card messages.
 */
function emulatedCardMode(env: NodeJS.ProcessEnv = process.env): { mode?: 'message' | 'cardkit' } {
  const mode = env.FEISHU_CARD_MODE?.trim();
  if (!mode) return {};
  if (mode !== 'message' && mode !== 'cardkit') throw new CliUsageError(`FEISHU_CARD_MODE = ${JSON.stringify(mode)} (expected message or cardkit)`);
  return { mode };
}

/** Feishu / Lark: CardKit entities whose answer types out (the default), or message cards patched through the im/v1 API (`FEISHU_CARD_MODE=message`). */
export const feishuChannel: ChannelDescriptor<'feishu', FeishuEmulator> = {
  id: 'feishu',
  label: 'Feishu / Lark',
  emulated: {
    start: (port) => startFeishuEmulator({ port }),
    plugin: (emulator, settings) =>
      withEmulatorCallbacks(
        feishu({
          appId: DEFAULT_FEISHU_APP.appId,
          appSecret: DEFAULT_FEISHU_APP.appSecret,
          domain: emulator.baseUrl,
          receiveIdType: 'chat_id',
          receiveId: EMULATED_FEISHU_CHAT_ID,
          tickMs: settings.tickMs,
          ...(settings.locale ? { locale: settings.locale } : {}),
          ...(settings.timeZone ? { timeZone: settings.timeZone } : {}),
          ...emulatedCardMode(),
          callbacks: { mode: 'http', port: 0, verificationToken: EMULATED_CALLBACK_TOKEN },
        }, { env: settings.switchEnv ?? {} }),
        emulator,
      ),
    env: (emulator) => [
      { name: 'FEISHU_APP_ID', value: DEFAULT_FEISHU_APP.appId },
      { name: 'FEISHU_APP_SECRET', value: DEFAULT_FEISHU_APP.appSecret },
      { name: 'FEISHU_CHAT_ID', value: EMULATED_FEISHU_CHAT_ID, note: 'any oc_… id is a chat' },
      { name: 'FEISHU_DOMAIN', value: emulator.baseUrl },
      ...(emulatedCardMode().mode ? [{ name: 'FEISHU_CARD_MODE', value: emulatedCardMode().mode! }] : []),
    ],
    pluginHint: (emulator) => `feishu({ …, domain: '${emulator.baseUrl}' })`,
  },
  real: {
    requiredEnv: FEISHU_ENV_VARIABLES.filter((variable) => variable.required).map((variable) => variable.name),
    standIns: { FEISHU_APP_ID: DEFAULT_FEISHU_APP.appId, FEISHU_APP_SECRET: DEFAULT_FEISHU_APP.appSecret, FEISHU_CHAT_ID: EMULATED_FEISHU_CHAT_ID },
    variables: FEISHU_ENV_VARIABLES,
    optionalEnv: FEISHU_ENV_VARIABLES.filter((variable) => !variable.required).map(({ name, hint }) => ({ name, hint })),
    plugin: (env, settings) => {
      try {
        return feishu.fromEnv({ receiveIdType: 'chat_id', tickMs: settings.tickMs, ...(settings.locale ? { locale: settings.locale } : {}) }, { env });
      } catch (error) {
        throw error instanceof FeishuConfigError || error instanceof MissingEnvError ? new CliUsageError(error.message) : error;
      }
    },
  },
  doctor: {
    callbacks: {
      setup: [
        'set FEISHU_CALLBACKS=long-connection (no public URL; self-built apps) or http:<port> (serve the callback request URL)',
        'in the developer console: Events & Callbacks → Callback Configuration → choose the same mode and add card.action.trigger',
        'without that, a click shows the user Feishu\'s "出错了，请稍后再试" (code 200340 in field reports)',
      ],
      listening: 'the card callback listener started (a long connection: Feishu accepted it)',
      caveats: [
        'Feishu reports no API for the console\'s callback subscription: if card.action.trigger is not added there, clicks show the user code 200340',
        'a long connection gets a share of the clicks while it is open (Feishu pushes each to one connection of the app); doctor holds it only for the check',
      ],
    },
    checkCredentials: async (env) => {
      const { json } = await postJson(`${feishuBaseUrl(env)}/open-apis/auth/v3/tenant_access_token/internal`, {
        app_id: env.FEISHU_APP_ID,
        app_secret: env.FEISHU_APP_SECRET,
      });
      if (json.code !== 0 || typeof json.tenant_access_token !== 'string') {
        throw new Error(`Feishu refused the app credentials: code ${String(json.code)} (${String(json.msg ?? '')})`);
      }
    },
    checkScopes: (env, plugin) => checkFeishuScopes(feishuBaseUrl(env), env, plugin),
    payloadProblems: (payload) => {
      const card = payload as { schema?: unknown; header?: { title?: unknown }; body?: { elements?: unknown } } | null;
      const problems: string[] = [];
      if (!card || typeof card !== 'object') return ['the payload is not an object'];
      if (card.schema !== '2.0') problems.push(`schema is ${JSON.stringify(card.schema)}, not "2.0" (Card JSON 2.0)`);
      if (!card.header?.title) problems.push('no header title');
      if (!Array.isArray(card.body?.elements) || card.body.elements.length === 0) problems.push('body.elements is not a non-empty list');
      return problems;
    },
    limitProblems: (payload) => {
      const checked = checkFeishuCardContent(JSON.stringify(payload));
      return checked.ok ? [] : [`Feishu would refuse it: code ${checked.error.code} (${checked.error.msg})`];
    },
    texts: (payload) => stringsIn(payload),
  },
  preview: {
    cards: (emulator) =>
      emulator.messages().map((m) => ({
        id: m.messageId,
        revision: `${m.updatedAt}:${m.updates}:${m.state}`,
        state: m.state === 'live' ? feishuTemplate(m.card) : m.state,
        createdAt: m.createdAt,
        updatedAt: m.updatedAt,
        version: m.updates + 1,
        render: () => renderFeishuMessage(m.msgType, m.content, m.card),
      })),
    calls: (emulator) => emulator.calls(),
    isTokenRoute: (route) => route.startsWith('auth.'),
    isRateLimited: (call) => call.status === 429 || FEISHU_RATE_LIMIT_CODES.has(Number(call.code)),
    finalPayload: (emulator, messageId) => emulator.message(messageId)?.card,
    async click(emulator, click) {
      const result = await emulator.click({ messageId: click.cardId, user: click.user, name: click.user, button: click.button, input: click.input });
      const toast = (result.response?.toast as { content?: string } | undefined)?.content;
      return { ok: result.error === undefined, message: result.error ?? toast ?? '' };
    },
  },
};

/** The plugin with its HTTP card callbacks registered as the emulator's callback URL once they listen. */
function withEmulatorCallbacks(plugin: FeishuPlugin, emulator: FeishuEmulator): FeishuPlugin {
  const callbacks = plugin.interaction as FeishuHttpCallbacks;
  return {
    ...plugin,
    interaction: {
      async start(onClick) {
        await callbacks.start(onClick);
        emulator.configureCallbacks({ url: callbacks.url!, verificationToken: EMULATED_CALLBACK_TOKEN });
      },
      stop: () => callbacks.stop(),
      warnings: callbacks.warnings,
    },
  };
}

/** The Open Platform base URL `FEISHU_DOMAIN` names: `feishu` (default), `lark`, or a URL such as an emulator's. */
function feishuBaseUrl(env: Env): string {
  const domain = env.FEISHU_DOMAIN?.trim() || 'feishu';
  if (domain === 'feishu') return 'https://open.feishu.cn';
  if (domain === 'lark') return 'https://open.larksuite.com';
  return domain.replace(/\/+$/, '');
}
