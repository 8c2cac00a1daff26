import { describeChannelConformance, type ConformanceDriver } from '@progresscard/core/testing/conformance';
import { DEFAULT_TEAMS_BOT, startTeamsEmulator } from '@progresscard/emulator';
import type { TeamsInvokeEndpoint } from '../src/index.js';
import { ROOMY_WINDOWS, shownText, teamsAnswer, teamsOn } from './harness.js';

const routes = { send: 'sendToConversation', update: 'updateActivity' } as const;

const driver: ConformanceDriver = {
  name: 'teams (emulator on loopback)',
  async start(setup) {
    // A group chat: cards are Adaptive Cards sent and updated in place.
    const emulator = await startTeamsEmulator({ limits: { perConversationWindows: ROOMY_WINDOWS } });
    const plugin = teamsOn(emulator, { ...setup.timing, conversationBudget: ROOMY_WINDOWS, ...(setup.interaction ? { invoke: { port: 0, openIdMetadataUrl: emulator.openIdMetadataUrl } } : {}) });
    const chat = () => emulator.activities({ conversationId: DEFAULT_TEAMS_BOT.groupChat });
    const hasButton = (id: string, title: string) => JSON.stringify(chat().find((a) => a.id === id)?.attachments ?? []).includes(`"title":${JSON.stringify(title)}`);
    // Clicks wait for their button in the order they were made, so a double click lands in that order.
    let inOrder: Promise<unknown> = Promise.resolve();
    return {
      plugin,
      messages: () =>
        chat().map((a) => ({
          id: a.id,
          text: shownText(a),
          calls: a.history.map((call) => ({ op: call.route === routes.update ? 'update' : 'send', at: call.receivedAt ?? call.at, refused: call.outcome !== 'accepted' }) as const),
          ...(a.replyToId === undefined ? {} : { replyTo: a.replyToId }),
        })),
      fail: (op, fault, times = 1) => void emulator.faults.add({ route: routes[op], times, respond: teamsAnswer(fault) }),
      remove: (id) => emulator.deleteActivity(DEFAULT_TEAMS_BOT.groupChat, id),
      maxInFlight: () => Math.max(0, ...chat().map((a) => a.maxConcurrentCalls)),
      ...(setup.interaction
        ? {
            async click({ messageId, user, control }) {
              const endpoint = plugin.interaction as TeamsInvokeEndpoint;
              if (endpoint.url === undefined) throw new Error('the messaging endpoint is not listening');
              emulator.setBotEndpoint({ url: endpoint.url, appId: DEFAULT_TEAMS_BOT.appId });
              const button = control.kind === 'choice' ? control.label : control.kind === 'stop' ? 'Stop' : control.kind === 'approve' ? 'Approve' : 'Deny';
              // The button appears once the card's update lands; a click after it is gone (decided) is a no-op.
              const shown = inOrder.then(async () => {
                for (const until = Date.now() + 3000; !hasButton(messageId, button) && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 20));
              });
              inOrder = shown;
              await shown;
              await emulator.click({ conversationId: DEFAULT_TEAMS_BOT.groupChat, activityId: messageId, button, user: { id: user, name: user } });
            },
          }
        : {}),
      close: () => emulator.close(),
    };
  },
  async startStreaming(setup) {
    // A 1:1 chat: Teams streams there.
    const emulator = await startTeamsEmulator({ limits: { perConversationWindows: ROOMY_WINDOWS, streamLifetimeMs: setup.streamLifetimeMs } });
    const plugin = teamsOn(emulator, { ...setup.timing, conversationBudget: ROOMY_WINDOWS, conversationId: DEFAULT_TEAMS_BOT.personalChat, streaming: { lifetimeMs: setup.streamLifetimeMs } });
    const chat = () => emulator.activities({ conversationId: DEFAULT_TEAMS_BOT.personalChat });
    return {
      plugin,
      messages: () => chat().map((a) => ({ id: a.id, text: shownText(a), calls: [], ...(a.replyToId === undefined ? {} : { replyTo: a.replyToId }) })),
      fail: (op, fault, times = 1) => void emulator.faults.add({ route: routes[op], times, respond: teamsAnswer(fault) }),
      remove: (id) => emulator.deleteActivity(DEFAULT_TEAMS_BOT.personalChat, id),
      maxInFlight: () => Math.max(0, ...chat().map((a) => a.maxConcurrentCalls)),
      streamedCard: async () => ({}),
      streams: () => chat().filter((a) => a.stream).map((a) => ({ id: a.id, text: a.stream!.text })),
      stopStream: (id) => emulator.stopStreamByUser(DEFAULT_TEAMS_BOT.personalChat, id),
      close: () => emulator.close(),
    };
  },
};

describeChannelConformance(driver);
