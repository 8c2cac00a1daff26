import { describeChannelConformance, type ConformanceDriver, type ConformanceFault } from '@progresscard/core/testing/conformance';
import type { FaultResponse } from '@progresscard/emulator';
import { setup as startPlatform } from './helpers.js';

/**
 * DingTalk's answer to each fault (https://open.dingtalk.com/document/development/server-api-error-codes-1):
 * 403 `Forbidden.AccessDenied.QpsLimitForAppkeyAndApi` for the app's QPS limit (DingTalk names no
 * wait; the plugin waits 2 s), 400 `InvalidAuthentication` for a bad token, a 500 for a transient error.
 */
function answer(fault: ConformanceFault): FaultResponse {
  switch (fault.kind) {
    case 'rate-limited':
      return { status: 403, body: { code: 'Forbidden.AccessDenied.QpsLimitForAppkeyAndApi', message: 'qps limit' } };
    case 'auth':
      return { status: 400, body: { code: 'InvalidAuthentication', message: 'token invalid' } };
    case 'transient':
      return { status: 500, body: { code: 'ServiceUnavailable', message: 'internal error' } };
    case 'not-modified':
      throw new Error('DingTalk accepts an update that changes nothing');
  }
}

/** A card's content updates go through two routes: the template variables and the streamed content. */
const ROUTES = { send: ['card.createAndDeliver'], update: ['card.update', 'card.streaming'] } as const;

const driver: ConformanceDriver = {
  name: 'dingtalk (emulator on loopback)',
  async start(setup) {
    const { emulator, plugin } = await startPlatform({ ...setup.timing }, {}, {});
    return {
      plugin,
      messages: () =>
        emulator.cards().map((card) => ({
          id: card.outTrackId,
          text: [...Object.values(card.cardData), ...Object.values(card.streamed)].join('\n'),
          calls: card.history
            .filter((call) => call.route.startsWith('card.'))
            .map((call) => ({ op: call.route === 'card.createAndDeliver' ? 'send' : 'update', at: call.receivedAt ?? call.at, refused: call.outcome !== 'accepted' }) as const),
        })),
      fail: (op, fault, times = 1) => {
        for (const route of ROUTES[op]) emulator.faults.add({ route, times, respond: answer(fault) });
      },
      // A card recalled from the chat: DingTalk answers every later update `param.cardNotExist`.
      remove: (outTrackId) => {
        for (const route of ROUTES.update) emulator.faults.add({ route, key: outTrackId, respond: { status: 400, body: { code: 'param.cardNotExist', message: 'card not exist' } } });
      },
      maxInFlight: () => Math.max(0, ...emulator.cards().map((card) => card.maxConcurrentCalls)),
      close: () => emulator.close(),
    };
  },
};

describeChannelConformance(driver);
