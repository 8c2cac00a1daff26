// Where the example's card goes: the Feishu emulator on loopback by default, the real Feishu
// (Lark) when FEISHU_APP_ID, FEISHU_APP_SECRET and FEISHU_CHAT_ID are set (FEISHU_DOMAIN optional).
// On the emulator the card's buttons work: a preview page shows the card and a click there goes
// through the emulator's card callback to the plugin (FEISHU_CALLBACK_PORT sets the callback port
// for the real Feishu: register http://<your host>:<port>/feishu/card-callback as the callback URL).
import { createProgressCards, type ProgressCard, type ProgressCards } from '@progresscard/core';
import { emulatorPreviewSource, feishuChannel, startPreviewServer, type PreviewServer } from '@progresscard/cli';
import { DEFAULT_FEISHU_APP, startFeishuEmulator, type FeishuEmulator } from '@progresscard/emulator';
import { feishu, type FeishuHttpCallbacks, type FeishuPlugin } from '@progresscard/plugin-feishu';

export interface ExampleCards {
  readonly cards: ProgressCards;
  open(title: string): ProgressCard;
  /** Prints where the final card went (and, on the emulator, what it shows), then stops everything. */
  finish(card: ProgressCard): Promise<void>;
}

export async function exampleCards(): Promise<ExampleCards> {
  const env = process.env;
  const real = Boolean(env.FEISHU_APP_ID && env.FEISHU_APP_SECRET && env.FEISHU_CHAT_ID);
  let emulator: FeishuEmulator | undefined;
  let preview: PreviewServer | undefined;
  const callbacks = { mode: 'http', port: Number(env.FEISHU_CALLBACK_PORT ?? 0), host: real ? '0.0.0.0' : '127.0.0.1' } as const;
  const config = real
    ? { appId: env.FEISHU_APP_ID!, appSecret: env.FEISHU_APP_SECRET!, receiveId: env.FEISHU_CHAT_ID!, callbacks, ...(env.FEISHU_DOMAIN ? { domain: env.FEISHU_DOMAIN } : {}) }
    : await startFeishuEmulator().then((started) => {
        emulator = started;
        return { appId: DEFAULT_FEISHU_APP.appId, appSecret: DEFAULT_FEISHU_APP.appSecret, domain: started.baseUrl, receiveId: 'oc_example', callbacks };
      });
  const plugin = feishu(config);
  const server = plugin.interaction as FeishuHttpCallbacks;
  const target = emulator;
  // On the emulator, button clicks are delivered to the plugin's callback URL once it listens.
  const channel: FeishuPlugin = !target
    ? plugin
    : {
        ...plugin,
        interaction: {
          async start(onClick) {
            await server.start(onClick);
            target.configureCallbacks({ url: server.url! });
          },
          stop: () => server.stop(),
        },
      };
  if (emulator) {
    preview = await startPreviewServer({ sources: [emulatorPreviewSource(feishuChannel, emulator)], runInfo: () => ({ title: 'example', phase: 'emulator' }), port: 0 });
    console.log(`posting to the Feishu emulator at ${emulator.baseUrl}; open ${preview.url} to see the card and click its buttons`);
  } else {
    console.log('posting to Feishu');
  }
  const cards = createProgressCards({ channels: [channel] });
  return {
    cards,
    open: (title) => cards.open('feishu', undefined, { title, locale: 'en' }),
    async finish(card) {
      const final = await card.finalDelivery;
      const view = card.view();
      console.log(`final card: ${view.status}${final.ok ? '' : ` (not delivered: ${final.error})`}`);
      for (const tool of view.tools) console.log(`  ${tool.text}`);
      for (const decision of view.decisions ?? []) console.log(`  decided: ${decision.answer}${decision.by ? ` by ${decision.by}` : ''}`);
      console.log(view.answer ? `answer: ${view.answer}` : view.error ? `error: ${view.error}` : '');
      await cards.shutdown();
      await preview?.close();
      await emulator?.close();
    },
  };
}
