import { pc } from '../terminal/colors.js';
import { DEFAULT_DINGTALK_APP, DEFAULT_FEISHU_APP } from '@progresscard/emulator';
import { EMULATED_DINGTALK, EMULATED_FEISHU_CHAT_ID, startEmulators, type Emulators } from '../channels/emulated.js';
import { CliUsageError, EXIT } from '../errors.js';
import { waitFor, type CliIO } from '../io.js';
import { startPreviewServer, type PreviewServer } from '../preview/server.js';

/** Options of the `emulator` command. */
export interface EmulatorCommandOptions {
  /** Feishu listens on `port`, DingTalk on `port + 1`; 0 = free ports. */
  readonly port: number;
  readonly preview: boolean;
  readonly previewPort: number;
}

/** Default port of the standalone Feishu emulator (DingTalk: the next one). */
export const DEFAULT_EMULATOR_PORT = 4871;

/**
 * `progresscard emulator`: both platform emulators on loopback until Ctrl-C, with their base URLs,
 * the app credentials they accept, and (by default) the live preview of every card they receive.
 */
export async function runEmulatorCommand(o: EmulatorCommandOptions, io: CliIO): Promise<number> {
  let emulators: Emulators | undefined;
  let preview: PreviewServer | undefined;
  try {
    emulators = await startEmulators(['feishu', 'dingtalk'], { feishu: o.port, dingtalk: o.port === 0 ? 0 : o.port + 1 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE') throw error;
      throw new CliUsageError(`port ${o.port} or ${o.port + 1} is already in use; pick others with --port <port> (or --port 0 for free ones)`);
    });
    const feishu = emulators.feishu!;
    const dingtalk = emulators.dingtalk!;
    const out = (line = '') => io.stdout.write(`${line}\n`);
    out(pc.bold('progresscard emulators running on loopback'));
    out();
    out(`${pc.bold('Feishu / Lark')}  ${pc.cyan(feishu.baseUrl)}   (plugin: feishu({ …, domain: '${feishu.baseUrl}' }))`);
    out(`  export FEISHU_APP_ID=${DEFAULT_FEISHU_APP.appId}`);
    out(`  export FEISHU_APP_SECRET=${DEFAULT_FEISHU_APP.appSecret}`);
    out(`  export FEISHU_CHAT_ID=${EMULATED_FEISHU_CHAT_ID}   # any oc_… id is a chat`);
    out(`  export FEISHU_DOMAIN=${feishu.baseUrl}`);
    out();
    out(`${pc.bold('DingTalk')}       ${pc.cyan(dingtalk.baseUrl)}   (plugin: dingtalk({ …, baseUrl: '${dingtalk.baseUrl}' }))`);
    out(`  export DINGTALK_APP_KEY=${DEFAULT_DINGTALK_APP.appKey}`);
    out(`  export DINGTALK_APP_SECRET=${DEFAULT_DINGTALK_APP.appSecret}`);
    out(`  export DINGTALK_ROBOT_CODE=${DEFAULT_DINGTALK_APP.appKey}`);
    out(`  export DINGTALK_CARD_TEMPLATE_ID=${EMULATED_DINGTALK.cardTemplateId}   # any template id is accepted`);
    out(`  export DINGTALK_OPEN_CONVERSATION_ID=${EMULATED_DINGTALK.openConversationId}`);
    out(`  export DINGTALK_BASE_URL=${dingtalk.baseUrl}`);
    if (o.preview) {
      preview = await startPreviewServer({
        sources: emulators.sources,
        runInfo: () => ({ title: 'progresscard emulators', phase: 'emulator' }),
        port: o.previewPort,
      });
      out();
      out(`${pc.bold('Live preview')}   ${pc.underline(pc.cyan(preview.url))}`);
    }
    out();
    out(pc.dim('Press Ctrl-C to stop.'));
    await waitFor(io.signal, Number.POSITIVE_INFINITY);
    return EXIT.ok;
  } finally {
    await preview?.close();
    await emulators?.close();
  }
}
