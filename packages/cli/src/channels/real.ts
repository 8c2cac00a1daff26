import type { ChannelPlugin } from '@progresscard/core';
import { dingtalk, DingTalkConfigError } from '@progresscard/plugin-dingtalk';
import { feishu, FeishuConfigError } from '@progresscard/plugin-feishu';
import { CliUsageError } from '../errors.js';
import type { ChannelId } from '../options.js';
import type { ReplayChannelSettings } from './emulated.js';

/**
 * `--real`: the same replay to the real Feishu / DingTalk APIs, configured from the environment.
 * Every variable a chosen channel needs is checked before anything is sent.
 */

/** Variables each channel needs with `--real`. */
export const REAL_ENV_VARS: Readonly<Record<ChannelId, readonly string[]>> = {
  feishu: ['FEISHU_APP_ID', 'FEISHU_APP_SECRET', 'FEISHU_CHAT_ID'],
  dingtalk: ['DINGTALK_APP_KEY', 'DINGTALK_APP_SECRET', 'DINGTALK_ROBOT_CODE', 'DINGTALK_CARD_TEMPLATE_ID', 'DINGTALK_OPEN_CONVERSATION_ID'],
};

/**
 * Optional: `FEISHU_DOMAIN` = `feishu` (default), `lark`, or a base URL; `DINGTALK_BASE_URL` =
 * the API base URL (default `https://api.dingtalk.com`). The `emulator` command prints both.
 */
export const OPTIONAL_REAL_ENV_VARS = ['FEISHU_DOMAIN', 'DINGTALK_BASE_URL'] as const;

type Env = Readonly<Record<string, string | undefined>>;

/** The variables of `channels` that are unset or empty, in a stable order. */
export function missingRealEnv(channels: readonly ChannelId[], env: Env): string[] {
  return channels.flatMap((id) => REAL_ENV_VARS[id].filter((name) => !env[name]?.trim()));
}

/**
 * Plugins for the real platforms.
 * @throws CliUsageError (exit 2) naming every missing variable, or the bad config field.
 */
export function realPlugins(channels: readonly ChannelId[], env: Env, settings: ReplayChannelSettings): ChannelPlugin<any, any>[] {
  const missing = missingRealEnv(channels, env);
  if (missing.length > 0) {
    const list = missing.join(', ');
    throw new CliUsageError(
      `--real needs ${missing.length === 1 ? 'the environment variable' : 'these environment variables'} ${list} ` +
        `(channel${channels.length > 1 ? 's' : ''} ${channels.join(', ')}); nothing was sent. ` +
        `Set ${missing.length === 1 ? 'it' : 'them'}, or pick one platform with --channel.`,
    );
  }
  const locale = settings.locale ? { locale: settings.locale } : {};
  try {
    return channels.map((id): ChannelPlugin<any, any> =>
      id === 'feishu'
        ? feishu({
            appId: env.FEISHU_APP_ID!.trim(),
            appSecret: env.FEISHU_APP_SECRET!,
            domain: env.FEISHU_DOMAIN?.trim() || 'feishu',
            receiveIdType: 'chat_id',
            receiveId: env.FEISHU_CHAT_ID!.trim(),
            tickMs: settings.tickMs,
            ...locale,
          })
        : dingtalk({
            appKey: env.DINGTALK_APP_KEY!.trim(),
            appSecret: env.DINGTALK_APP_SECRET!,
            robotCode: env.DINGTALK_ROBOT_CODE!.trim(),
            cardTemplateId: env.DINGTALK_CARD_TEMPLATE_ID!.trim(),
            target: { type: 'group', openConversationId: env.DINGTALK_OPEN_CONVERSATION_ID!.trim() },
            ...(env.DINGTALK_BASE_URL?.trim() ? { baseUrl: env.DINGTALK_BASE_URL.trim() } : {}),
            tickMs: settings.tickMs,
            ...locale,
          }),
    );
  } catch (error) {
    if (error instanceof FeishuConfigError || error instanceof DingTalkConfigError) throw new CliUsageError(error.message);
    throw error;
  }
}
