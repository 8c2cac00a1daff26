import { describe, expect, it } from 'vitest';
import { harness } from './harness.js';

describe('a wrong app secret on the Feishu emulator', () => {
  it('ends the card with ok:false and an error naming the credentials, after one log line and no message', async () => {
    const h = await harness({ plugin: { appSecret: 'not-the-secret' } });
    try {
      const card = h.cards.open('feishu');
      card.start({ title: 'wrong secret' });
      card.toolStarted('c1', 'shell', { command: 'npm test' });
      card.complete('done');
      const final = await card.finalDelivery;

      expect(final).toMatchObject({ ok: false, status: 'completed' });
      expect(final.error).toMatch(/^feishu credentials refused: .*code 10015/);
      // One operator-facing line (the credential refresh before it is a debug line).
      const lines = h.logger.lines.filter((line) => !line.startsWith('debug'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^error feishu: credentials refused.*check the app id and secret/);
      expect(lines.join('\n')).not.toContain('not-the-secret');
      // Only token requests reached the platform: no card was created.
      expect(h.emulator.messages()).toHaveLength(0);
      expect(h.emulator.calls().every((call) => call.route.startsWith('auth.'))).toBe(true);
    } finally {
      await h.close();
    }
  });
});
