import { DEFAULT_DINGTALK_APP, startDingTalkEmulator, type DingTalkEmulator, type DingTalkEmulatorOptions } from '@progresscard/emulator';
import { dingtalk, type DingTalkConfigInput, type DingTalkPlugin, type DingTalkPluginOptions } from '../src/index.js';

export const TEMPLATE_ID = '382e4302-551d-4880-bf29-a30acfab2e71.schema';
export const GROUP = { type: 'group', openConversationId: 'cidGroup42==' } as const;

/** A DingTalk emulator and a plugin pointed at it. */
export async function setup(
  config: Partial<DingTalkConfigInput> = {},
  emulatorOptions: DingTalkEmulatorOptions = {},
  pluginOptions: DingTalkPluginOptions = {},
): Promise<{ emulator: DingTalkEmulator; plugin: DingTalkPlugin }> {
  const emulator = await startDingTalkEmulator(emulatorOptions);
  const plugin = dingtalk(
    {
      appKey: DEFAULT_DINGTALK_APP.appKey,
      appSecret: DEFAULT_DINGTALK_APP.appSecret,
      cardTemplateId: TEMPLATE_ID,
      target: GROUP,
      baseUrl: emulator.baseUrl,
      timeZone: 'UTC',
      ...config,
    },
    pluginOptions,
  );
  return { emulator, plugin };
}

export const payload = (content: string, flowStatus = '2') => ({
  cardParamMap: { msgTitle: 'T', msgContent: content, flowStatus },
  streamEnd: flowStatus === '2' ? ('open' as const) : flowStatus === '5' ? ('error' as const) : ('finalize' as const),
});
