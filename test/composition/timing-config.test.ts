import { ChannelConfigError, memoryChannel } from '@progresscard/core';
import { dingtalk } from '@progresscard/plugin-dingtalk';
import { feishu } from '@progresscard/plugin-feishu';
import { describe, expect, it } from 'vitest';

const channels = {
  feishu: (timing: object) => feishu({ appId: 'cli_timing', appSecret: 'timing-secret', receiveId: 'oc_x', ...timing }),
  dingtalk: (timing: object) => dingtalk({ appKey: 'k', appSecret: 'timing-secret', cardTemplateId: 't.schema', ...timing }),
  memory: (timing: object) => memoryChannel({ overrides: timing }),
};

/** One bad timing value in config is one behaviour on every channel: an error naming channel, field and value. */
describe('timing settings in config', () => {
  for (const [id, make] of Object.entries(channels)) {
    it.each([
      [{ tickMs: 0 }, `${id} tickMs = 0 (`],
      [{ debounceMs: -1 }, `${id} debounceMs = -1 (`],
      [{ budget: [{ limit: 0, intervalMs: 1000 }] }, `${id} budget.0.limit = 0 (`],
    ])(`${id}: %o is refused with the channel, field and value`, (timing, message) => {
      expect(() => make(timing)).toThrow(ChannelConfigError);
      expect(() => make(timing)).toThrow(message);
    });

    it(`${id}: valid values become the plugin's overrides`, () => {
      expect(make({ tickMs: 1500, perCardIntervalMs: 0 }).overrides).toEqual({ tickMs: 1500, perCardIntervalMs: 0 });
    });
  }
});
