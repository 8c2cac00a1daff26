import { DEFAULT_DINGTALK_APP, startDingTalkEmulator, type DingTalkEmulator } from '@progresscard/emulator';
import { MissingEnvError } from '@progresscard/core';
import { DINGTALK_API_BASE_URL, DINGTALK_ENV_VARIABLES, dingtalk, DingTalkConfigError, type DingTalkPlugin } from '@progresscard/plugin-dingtalk';
import { codePointLength } from '@progresscard/core/plugin';
import { CliUsageError } from '../errors.js';
import { renderDingTalkCard } from '../preview/render-dingtalk.js';
import type { ChannelDescriptor } from './descriptor.js';
import { postJson, stringsIn } from './doctor-support.js';

/** The DingTalk card template and group the demo uses on the emulator (it accepts any template id). */
export const EMULATED_DINGTALK = {
  cardTemplateId: 'progresscard-demo.schema',
  openConversationId: 'cidProgresscardDemo==',
} as const;

/**
 * DingTalk's throttling answers: HTTP 429 and the `…QpsLimit…` / `…Throttl…` codes
 * (https://open.dingtalk.com/document/development/how-to-process-api-throttling-on-the-dingtalk-server).
 */
const DINGTALK_RATE_LIMIT_CODE = /qps|throttl|ratelimit|frequency/i;

/** DingTalk: AI cards created, delivered and updated through the card_1.0 API. */
export const dingtalkChannel: ChannelDescriptor<'dingtalk', DingTalkEmulator> = {
  id: 'dingtalk',
  label: 'DingTalk',
  emulated: {
    start: (port) => startDingTalkEmulator({ port }),
    plugin: (emulator, settings) =>
      dingtalk({
        appKey: DEFAULT_DINGTALK_APP.appKey,
        appSecret: DEFAULT_DINGTALK_APP.appSecret,
        cardTemplateId: EMULATED_DINGTALK.cardTemplateId,
        target: { type: 'group', openConversationId: EMULATED_DINGTALK.openConversationId },
        baseUrl: emulator.baseUrl,
        tickMs: settings.tickMs,
        callbacks: { mode: 'stream' },
        ...(settings.locale ? { locale: settings.locale } : {}),
        ...(settings.timeZone ? { timeZone: settings.timeZone } : {}),
      }, { env: settings.switchEnv ?? {} }),
    env: (emulator) => [
      { name: 'DINGTALK_APP_KEY', value: DEFAULT_DINGTALK_APP.appKey },
      { name: 'DINGTALK_APP_SECRET', value: DEFAULT_DINGTALK_APP.appSecret },
      { name: 'DINGTALK_ROBOT_CODE', value: DEFAULT_DINGTALK_APP.appKey },
      { name: 'DINGTALK_CARD_TEMPLATE_ID', value: EMULATED_DINGTALK.cardTemplateId, note: 'any template id is accepted' },
      { name: 'DINGTALK_OPEN_CONVERSATION_ID', value: EMULATED_DINGTALK.openConversationId },
      { name: 'DINGTALK_BASE_URL', value: emulator.baseUrl },
    ],
    pluginHint: (emulator) => `dingtalk({ …, baseUrl: '${emulator.baseUrl}' })`,
  },
  real: {
    requiredEnv: DINGTALK_ENV_VARIABLES.filter((variable) => variable.required).map((variable) => variable.name),
    standIns: { DINGTALK_APP_KEY: DEFAULT_DINGTALK_APP.appKey, DINGTALK_APP_SECRET: DEFAULT_DINGTALK_APP.appSecret, DINGTALK_ROBOT_CODE: DEFAULT_DINGTALK_APP.appKey, DINGTALK_CARD_TEMPLATE_ID: EMULATED_DINGTALK.cardTemplateId, DINGTALK_OPEN_CONVERSATION_ID: EMULATED_DINGTALK.openConversationId },
    variables: DINGTALK_ENV_VARIABLES,
    optionalEnv: DINGTALK_ENV_VARIABLES.filter((variable) => !variable.required).map(({ name, hint }) => ({ name, hint })),
    plugin: (env, settings) => {
      try {
        return dingtalk.fromEnv({ tickMs: settings.tickMs, ...(settings.locale ? { locale: settings.locale } : {}) }, { env });
      } catch (error) {
        throw error instanceof DingTalkConfigError || error instanceof MissingEnvError ? new CliUsageError(error.message) : error;
      }
    },
  },
  doctor: {
    callbacks: {
      setup: [
        'set DINGTALK_CALLBACKS=stream (Stream mode: no public URL) or http:<port> (an HTTP callback URL, registered with POST /v1.0/card/callbacks/register)',
        'in the developer console: turn on Stream mode for the app, and bind the card template\'s buttons to the controls variable (pcControls) with the callback type Stream',
      ],
      listening: 'the card callbacks registered (Stream mode: gateway ticket accepted, WebSocket open; HTTP: the URL registered for the route key)',
      caveats: ['DingTalk reports no API for the card template\'s callback setting: a template without callback buttons sends nothing'],
    },
    // A standard organisation's metered calls a month (token calls exempt):
    // https://open.dingtalk.com/document/development/how-to-process-api-throttling-on-the-dingtalk-server
    monthlyQuota: 5000,
    checkCredentials: async (env) => {
      const base = (env.DINGTALK_BASE_URL?.trim() || DINGTALK_API_BASE_URL).replace(/\/+$/, '');
      const { status, json } = await postJson(`${base}/v1.0/oauth2/accessToken`, { appKey: env.DINGTALK_APP_KEY, appSecret: env.DINGTALK_APP_SECRET });
      if (typeof json.accessToken !== 'string') {
        throw new Error(`DingTalk refused the app credentials: HTTP ${status} ${String(json.code ?? '')} (${String(json.message ?? '')})`);
      }
    },
    payloadProblems: (payload, plugin) => {
      const keys = (plugin as DingTalkPlugin).config.templateKeys;
      const map = (payload as { cardParamMap?: Record<string, unknown> } | null)?.cardParamMap;
      if (!map || typeof map !== 'object') return ['no cardParamMap'];
      const problems = Object.entries(map).filter(([, value]) => typeof value !== 'string').map(([key]) => `cardParamMap.${key} is not a string`);
      for (const [role, key] of Object.entries(keys)) if (!(key in map)) problems.push(`template variable ${key} (${role}) is missing`);
      return problems;
    },
    limitProblems: (payload, plugin) => {
      const config = (plugin as DingTalkPlugin).config;
      const content = (payload as { cardParamMap?: Record<string, string> }).cardParamMap?.[config.templateKeys.content] ?? '';
      const length = codePointLength(content);
      return length > config.maxContentChars ? [`content has ${length} code points, more than maxContentChars ${config.maxContentChars}`] : [];
    },
    texts: (payload) => stringsIn(payload),
  },
  preview: {
    cards: (emulator) =>
      emulator.cards().map((c) => ({
        id: c.outTrackId,
        revision: `${c.version}:${c.state}`,
        state: c.state,
        createdAt: c.createdAt,
        updatedAt: c.updatedAt,
        version: c.version,
        render: () => renderDingTalkCard(c.cardData, c.state),
      })),
    calls: (emulator) => emulator.calls(),
    async click(emulator, click) {
      const result = await emulator.click({ outTrackId: click.cardId, user: click.user, button: click.button, input: click.input });
      const notice = (result.response?.userPrivateData as { cardParamMap?: { pcNotice?: string } } | undefined)?.cardParamMap?.pcNotice;
      return { ok: result.error === undefined, message: result.error ?? notice ?? '' };
    },
    isTokenRoute: (route) => route.startsWith('oauth2.'),
    isRateLimited: (call) => call.status === 429 || DINGTALK_RATE_LIMIT_CODE.test(String(call.code ?? '')),
    finalPayload: (emulator, messageId) => {
      const held = emulator.card(messageId);
      return held ? { cardParamMap: held.cardData, state: held.state } : undefined;
    },
  },
};
