import type { EnvVariable } from '@progresscard/core/plugin';
import { DingTalkConfigError, type DingTalkConfigInput } from './config.js';

/**
 * The environment variables `dingtalk.fromEnv()` reads, in order. Required: `DINGTALK_APP_KEY`,
 * `DINGTALK_APP_SECRET`, `DINGTALK_ROBOT_CODE` (for an internal-app robot, its AppKey),
 * `DINGTALK_CARD_TEMPLATE_ID` and `DINGTALK_OPEN_CONVERSATION_ID` (the group cards go to); optional:
 * `DINGTALK_BASE_URL` (default https://api.dingtalk.com, or an emulator's URL) and
 * `DINGTALK_CALLBACKS` (`stream` or `http:<port>`: card buttons over Stream mode or HTTP callbacks) and,
 * with `http:<port>`, `DINGTALK_CALLBACK_API_SECRET` (`callbacks.apiSecret`: without it, HTTP callbacks are not verified).
 */
export const DINGTALK_ENV_VARIABLES: readonly EnvVariable<DingTalkConfigInput>[] = [
  { name: 'DINGTALK_APP_KEY', field: 'appKey', required: true, hint: 'the app key' },
  { name: 'DINGTALK_APP_SECRET', field: 'appSecret', required: true, secret: true, hint: 'the app secret' },
  { name: 'DINGTALK_ROBOT_CODE', field: 'robotCode', required: true, hint: 'the robot that delivers group cards (its AppKey)' },
  { name: 'DINGTALK_CARD_TEMPLATE_ID', field: 'cardTemplateId', required: true, hint: 'the published card template id (AI templates end in .schema)' },
  {
    name: 'DINGTALK_OPEN_CONVERSATION_ID',
    field: 'target',
    required: true,
    hint: 'the group cards go to, cid…',
    toValue: (openConversationId) => ({ type: 'group', openConversationId }),
  },
  { name: 'DINGTALK_BASE_URL', field: 'baseUrl', required: false, hint: 'the API base URL, default https://api.dingtalk.com' },
  {
    name: 'DINGTALK_CALLBACKS',
    field: 'callbacks',
    required: false,
    hint: 'card buttons: stream (Stream mode), or http:<port> (an HTTP callback URL served on that port)',
    toValue: (text) => {
      if (text === 'stream') return { mode: 'stream' };
      const http = /^http:(\d{1,5})$/.exec(text);
      if (http) return { mode: 'http', port: Number(http[1]) };
      throw new DingTalkConfigError('dingtalk', 'callbacks (DINGTALK_CALLBACKS)', JSON.stringify(text), 'expected stream or http:<port>');
    },
  },
  {
    name: 'DINGTALK_CALLBACK_API_SECRET',
    field: 'callbacks',
    into: 'apiSecret',
    required: false,
    secret: true,
    hint: 'with DINGTALK_CALLBACKS=http:<port>: the secret callbacks are signed with; callbacks without a matching sign are refused',
  },
];
