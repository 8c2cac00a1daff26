import type { EnvVariable } from '@progresscard/core/plugin';
import { FeishuConfigError, type FeishuConfigInput } from './config.js';

/**
 * The environment variables `feishu.fromEnv()` reads, in order. Required: `FEISHU_APP_ID`,
 * `FEISHU_APP_SECRET` and `FEISHU_CHAT_ID` (the chat cards go to, an `oc_…` chat_id); optional:
 * `FEISHU_DOMAIN` (`feishu`, `lark` or a base URL such as an emulator's), `FEISHU_CARD_MODE`
 * (`cardkit`, the default, or `message`), `FEISHU_CALLBACKS` (`long-connection` or `http:<port>`: card buttons) and,
 * with `http:<port>`, `FEISHU_CALLBACK_VERIFICATION_TOKEN` / `FEISHU_CALLBACK_ENCRYPT_KEY`
 * (`callbacks.verificationToken` / `callbacks.encryptKey`: without either, HTTP callbacks are not verified).
 */
export const FEISHU_ENV_VARIABLES: readonly EnvVariable<FeishuConfigInput>[] = [
  { name: 'FEISHU_APP_ID', field: 'appId', required: true, hint: 'the app id, cli_…' },
  { name: 'FEISHU_APP_SECRET', field: 'appSecret', required: true, secret: true, hint: 'the app secret' },
  { name: 'FEISHU_CHAT_ID', field: 'receiveId', required: true, hint: 'the chat cards go to, oc_…' },
  { name: 'FEISHU_DOMAIN', field: 'domain', required: false, hint: 'feishu (default), lark or a base URL' },
  { name: 'FEISHU_CARD_MODE', field: 'mode', required: false, hint: 'cardkit (default: streamed answer; needs cardkit:card:write) or message (patched card)' },
  {
    name: 'FEISHU_CALLBACKS',
    field: 'callbacks',
    required: false,
    hint: 'card buttons: long-connection, or http:<port> (the callback request URL served on that port)',
    toValue: callbacksFromEnv,
  },
  {
    name: 'FEISHU_CALLBACK_VERIFICATION_TOKEN',
    field: 'callbacks',
    into: 'verificationToken',
    required: false,
    secret: true,
    hint: 'with FEISHU_CALLBACKS=http:<port>: the Verification Token (Events & Callbacks → Encryption Strategy); callbacks without it are refused',
  },
  {
    name: 'FEISHU_CALLBACK_ENCRYPT_KEY',
    field: 'callbacks',
    into: 'encryptKey',
    required: false,
    secret: true,
    hint: 'with FEISHU_CALLBACKS=http:<port>: the Encrypt Key; callbacks must carry its X-Lark-Signature',
  },
];

/**
 * `FEISHU_CALLBACKS`: `long-connection` or `http:<port>`.
 * @throws FeishuConfigError naming the variable and the value for anything else.
 */
function callbacksFromEnv(text: string): unknown {
  if (text === 'long-connection') return { mode: 'long-connection' };
  const http = /^http:(\d{1,5})$/.exec(text);
  if (http) return { mode: 'http', port: Number(http[1]) };
  throw new FeishuConfigError('feishu', 'callbacks (FEISHU_CALLBACKS)', JSON.stringify(text), 'expected long-connection or http:<port>');
}
