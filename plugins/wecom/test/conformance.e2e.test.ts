import { describeChannelConformance, type ConformanceDriver, type ConformanceFault } from '@progresscard/core/testing/conformance';
import { startWeComEmulator, WECOM_CODES, type FaultResponse } from '@progresscard/emulator';
import { wecom, wecomCallbacks } from '../src/index.js';
import { BOT } from './harness.js';

/** WeCom's answer to a `response_url` post for each fault (errcode in a 200, https://developer.work.weixin.qq.com/document/path/90313). */
function answer(fault: ConformanceFault): FaultResponse {
  switch (fault.kind) {
    case 'rate-limited':
      return { status: 200, body: { errcode: WECOM_CODES.freqOutOfLimit, errmsg: 'api freq out of limit' } };
    case 'auth':
      return { status: 200, body: { errcode: 40014, errmsg: 'invalid access_token' } };
    case 'transient':
    case 'not-modified':
      return { status: 200, body: { errcode: WECOM_CODES.systemBusy, errmsg: 'system busy' } };
  }
}

/** Users whose messages wait for a card (the suite opens up to two cards per test; WeCom allows 3 per user). */
const USERS = ['zhangsan', 'lisi', 'wangwu'];

// WeCom pulls: the emulator polls every stream each 50 ms here (about once a second in WeCom). No
// `click`: the suite's second question on one card needs a second template card on the same
// message, which WeCom does not allow (one card per message, updated only in answer to a click);
// the card buttons are covered by card-buttons.test.ts instead.
const driver: ConformanceDriver = {
  name: 'wecom AI bot, callback mode (emulator on loopback)',
  async start(setup) {
    const plugin = wecom({ ...BOT, pollGoneAfterMs: 3000, ...setup.timing }, { env: {} });
    const callbacks = wecomCallbacks(plugin);
    const callbackUrl = await callbacks.listen();
    const emulator = await startWeComEmulator({ ...BOT, callbackUrl, limits: { pollIntervalMs: 50 } });
    for (const userid of USERS) {
      const sent = await emulator.sendUserMessage({ userid, text: '@bot run the task' });
      if (!sent.ok) throw new Error(`the user message was not answered: ${sent.reason}`);
    }
    return {
      plugin,
      pull: true,
      settled: () => emulator.settled(),
      messages: () => {
        const all = emulator.snapshot();
        return all.map((m) => {
          const stream = m.follows === undefined ? undefined : all.find((s) => s.id === m.follows);
          // A reply after a stream that says the answer continues is a continuation part; after a dropped stream it is the fresh card.
          const continues = stream?.text.includes('continues in the next message') === true;
          return { id: m.id, text: m.text, calls: m.calls, ...(continues ? { replyTo: stream!.id } : {}) };
        });
      },
      fail: (_op, fault, times = 1) => void emulator.faults.add({ route: 'response_url', times, respond: answer(fault) }),
      remove: (id) => emulator.drop(id),
      maxInFlight: () => Math.max(0, ...emulator.snapshot().map((m) => m.maxInFlight)),
      close: async () => {
        await emulator.close();
        await callbacks.stop();
      },
    };
  },
};

describeChannelConformance(driver);
