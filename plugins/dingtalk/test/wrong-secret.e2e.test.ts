import { createProgressCards } from '@progresscard/core';
import { describe, expect, it } from 'vitest';
import { recordingLogger } from '@progresscard/core/testing';
import { setup } from './helpers.js';

describe('a wrong app secret on the DingTalk emulator', () => {
  it('ends the card with ok:false and an error naming the credentials, after one log line and no card', async () => {
    const { emulator, plugin } = await setup({ appSecret: 'not-the-secret' });
    const logger = recordingLogger({ levels: ['warn', 'error'] });
    const cards = createProgressCards({ channels: [plugin], logger, env: {} });
    try {
      const card = cards.open('dingtalk');
      card.start({ title: 'wrong secret' });
      card.toolStarted('c1', 'shell', { command: 'npm test' });
      card.complete('done');
      const final = await card.finalDelivery;

      expect(final).toMatchObject({ ok: false, status: 'completed' });
      expect(final.error).toMatch(/^dingtalk credentials refused: .*invalidClientIdOrSecret/);
      expect(logger.lines).toHaveLength(1);
      expect(logger.lines[0]).toMatch(/^error dingtalk: credentials refused.*check the app key and secret/);
      expect(logger.lines.join('\n')).not.toContain('not-the-secret');
      expect(emulator.cards()).toHaveLength(0);
    } finally {
      await cards.shutdown();
      await emulator.close();
    }
  });
});
