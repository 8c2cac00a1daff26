import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordingLogger } from '../../src/testing/index.js';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const TRANSIENT = { kind: 'transient', detail: '503 Service Unavailable' } as const;

describe('the log line of a failed call', () => {
  it('says "send failed" for a failed send of a new message and "update failed" for a failed update', async () => {
    const logger = recordingLogger();
    const { channel, cards } = setup({}, {}, logger);
    channel.failNext({ op: 'send', failure: TRANSIENT, times: 1 });
    const card = cards.open('memory');
    card.start({ title: 'run' });
    await settle(5000);
    expect(logger.at('warn').map((line) => line.message)).toEqual(['send failed']);

    channel.failNext({ op: 'update', failure: TRANSIENT, times: 1 });
    card.toolStarted('a', 'shell', '{"command":"make"}');
    await settle(5000);
    expect(logger.at('warn').map((line) => line.message)).toEqual(['send failed', 'update failed']);
  });
});
