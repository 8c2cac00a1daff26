import { describe, expect, it } from 'vitest';
import { feishu } from '../src/index.js';

describe('feishu durations past setTimeout\'s limit are refused at config time', () => {
  it.each(['callTimeoutMs', 'requestTimeoutMs', 'debounceMs'])('%s = 2^31', (field) => {
    expect(() => feishu({ appId: 'cli_a', appSecret: 's', receiveId: 'oc_a', [field]: 2 ** 31 })).toThrow(new RegExp(`${field}.*2147483648.*at most 2147483647 ms`));
  });

  it('the limit itself is accepted', () => {
    expect(() => feishu({ appId: 'cli_a', appSecret: 's', receiveId: 'oc_a', callTimeoutMs: 2_147_483_647 })).not.toThrow();
  });
});
