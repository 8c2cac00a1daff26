import type { EnvVariable } from '@progresscard/core/plugin';
import type { WeComConfigInput } from './config.js';

/**
 * The environment variables `wecom.fromEnv()` reads. Required: `WECOM_BOT_TOKEN` and
 * `WECOM_BOT_ENCODING_AES_KEY`; optional: `WECOM_BOT_ID` (refuse other bots' callbacks) and
 * `WECOM_CALLBACK_PORT` (default 0: any free port).
 */
export const WECOM_ENV_VARIABLES: readonly EnvVariable<WeComConfigInput>[] = [
  { name: 'WECOM_BOT_TOKEN', field: 'token', required: true, secret: true, hint: "the AI bot's callback Token" },
  { name: 'WECOM_BOT_ENCODING_AES_KEY', field: 'encodingAESKey', required: true, secret: true, hint: "the AI bot's 43-character EncodingAESKey" },
  { name: 'WECOM_BOT_ID', field: 'botId', required: false, hint: 'the bot id (aibotid); callbacks for another bot are refused' },
  { name: 'WECOM_CALLBACK_PORT', field: 'port', required: false, hint: 'port of the callback URL', toValue: (text) => (/^\d+$/.test(text) ? Number(text) : text) },
];
