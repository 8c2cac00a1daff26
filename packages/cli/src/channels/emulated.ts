import type { ChannelPlugin, Locale } from '@progresscard/core';
import {
  DEFAULT_DINGTALK_APP,
  DEFAULT_FEISHU_APP,
  startDingTalkEmulator,
  startFeishuEmulator,
  type DingTalkEmulator,
  type FeishuEmulator,
} from '@progresscard/emulator';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { feishu } from '@progresscard/plugin-feishu';
import type { ChannelId } from '../options.js';
import { dingTalkPreviewSource, feishuPreviewSource } from '../preview/sources.js';
import type { PreviewSource } from '../preview/model.js';

/** The chat the demo's Feishu cards go to (any `oc_…` id is a chat to the emulator). */
export const EMULATED_FEISHU_CHAT_ID = 'oc_progresscarddemo';
/** The DingTalk card template and group the demo uses on the emulator. */
export const EMULATED_DINGTALK = {
  cardTemplateId: 'progresscard-demo.schema',
  openConversationId: 'cidProgresscardDemo==',
} as const;

/** Both platform emulators, started on loopback. */
export interface Emulators {
  readonly feishu?: FeishuEmulator;
  readonly dingtalk?: DingTalkEmulator;
  /** Preview panels reading each emulator's accepted state. */
  readonly sources: PreviewSource[];
  close(): Promise<void>;
}

/** Ports to listen on (0 or absent = any free port). */
export interface EmulatorPorts {
  readonly feishu?: number;
  readonly dingtalk?: number;
}

/** Starts the emulators of `channels` on 127.0.0.1 with the default app credentials. */
export async function startEmulators(channels: readonly ChannelId[], ports: EmulatorPorts = {}): Promise<Emulators> {
  const started: Array<{ close(): Promise<void> }> = [];
  try {
    const feishuEmu = channels.includes('feishu') ? await startFeishuEmulator({ port: ports.feishu ?? 0 }) : undefined;
    if (feishuEmu) started.push(feishuEmu);
    const dingEmu = channels.includes('dingtalk') ? await startDingTalkEmulator({ port: ports.dingtalk ?? 0 }) : undefined;
    if (dingEmu) started.push(dingEmu);
    const sources: PreviewSource[] = [];
    if (feishuEmu) sources.push(feishuPreviewSource(feishuEmu));
    if (dingEmu) sources.push(dingTalkPreviewSource(dingEmu));
    return {
      feishu: feishuEmu,
      dingtalk: dingEmu,
      sources,
      close: async () => void (await Promise.all(started.map((s) => s.close()))),
    };
  } catch (error) {
    await Promise.all(started.map((s) => s.close()));
    throw error;
  }
}

/** Timing and language every channel of a replay gets. */
export interface ReplayChannelSettings {
  /** Wall-ms tick of running tools (see `replayTickMs`). */
  readonly tickMs: number;
  /** Forces the card language; default: the run's. */
  readonly locale?: Locale;
}

/** The real plugins, pointed at the emulators. */
export function emulatedPlugins(emulators: Emulators, settings: ReplayChannelSettings): ChannelPlugin<any, any>[] {
  const plugins: ChannelPlugin<any, any>[] = [];
  if (emulators.feishu) {
    plugins.push(
      feishu({
        appId: DEFAULT_FEISHU_APP.appId,
        appSecret: DEFAULT_FEISHU_APP.appSecret,
        domain: emulators.feishu.baseUrl,
        receiveIdType: 'chat_id',
        receiveId: EMULATED_FEISHU_CHAT_ID,
        tickMs: settings.tickMs,
        ...(settings.locale ? { locale: settings.locale } : {}),
      }),
    );
  }
  if (emulators.dingtalk) {
    plugins.push(
      dingtalk({
        appKey: DEFAULT_DINGTALK_APP.appKey,
        appSecret: DEFAULT_DINGTALK_APP.appSecret,
        cardTemplateId: EMULATED_DINGTALK.cardTemplateId,
        target: { type: 'group', openConversationId: EMULATED_DINGTALK.openConversationId },
        baseUrl: emulators.dingtalk.baseUrl,
        tickMs: settings.tickMs,
        ...(settings.locale ? { locale: settings.locale } : {}),
      }),
    );
  }
  return plugins;
}
