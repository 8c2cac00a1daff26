import { DEFAULT_DINGTALK_APP, startDingTalkEmulator, type DingTalkEmulator } from '@progresscard/emulator';
import { MissingEnvError } from '@progresscard/core';
import { DINGTALK_ENV_VARIABLES, dingtalk, DingTalkConfigError } from '@progresscard/plugin-dingtalk';
import { CliUsageError } from '../errors.js';
import { renderDingTalkCard } from '../preview/render-dingtalk.js';
import type { ChannelDescriptor } from './descriptor.js';

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
      }),
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
    optionalEnv: DINGTALK_ENV_VARIABLES.filter((variable) => !variable.required).map(({ name, hint }) => ({ name, hint })),
    plugin: (env, settings) => {
      try {
        return dingtalk.fromEnv({ tickMs: settings.tickMs, ...(settings.locale ? { locale: settings.locale } : {}) }, { env });
      } catch (error) {
        throw error instanceof DingTalkConfigError || error instanceof MissingEnvError ? new CliUsageError(error.message) : error;
      }
    },
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
