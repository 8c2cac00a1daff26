import { afterEach, describe, expect, it, vi } from 'vitest';
import { CardState, redactSecrets } from '../../src/index.js';
import { createRedactor, NO_REDACTION, REDACTED } from '../../src/card/redaction.js';
import { toolDetail } from '../../src/card/tool-lines.js';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const KEY = 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3iJk6';

describe('secret redaction', () => {
  it('keeps the header or variable name and replaces only the secret', () => {
    expect(redactSecrets(`export OPENAI_API_KEY=${KEY}`)).toBe(`export OPENAI_API_KEY=${REDACTED}`);
    expect(redactSecrets('curl -H "Authorization: Bearer 4f9c2e71b8a34d6e9f0a1b2c3d4e5f60" x')).toBe(`curl -H "Authorization: Bearer ${REDACTED}" x`);
    expect(redactSecrets('postgres://admin:s3cr3t@db:5432/app')).toBe(`postgres://admin:${REDACTED}@db:5432/app`);
  });

  it('a secret past the 80 characters a tool line shows is redacted before the cut, not cut into an unrecognisable half', () => {
    const command = `cd /srv/app && ./scripts/deploy.sh --region eu-west-1 --token ghp_R4nD0mT0k3nV4lu3F0rT3st1ngPurp0s3s12`;
    expect(toolDetail({ command })).toMatch(/--token \[redacted\]$/);
    // Without redaction the line would show the token's first characters (cut at 80).
    expect(toolDetail({ command }, NO_REDACTION)).toMatch(/--token ghp_\w+…$/);
  });

  it('a secret streamed in pieces (answer deltas released apart) is still found in the shown answer', () => {
    const state = new CardState({ startedAt: 0 });
    state.apply({ type: 'answer.delta', text: `Set OPENAI_API_KEY=${KEY.slice(0, 20)}` }, 1);
    state.releaseText();
    state.apply({ type: 'answer.delta', text: `${KEY.slice(20)} and rerun.` }, 2);
    state.releaseText();
    const answer = state.view(3).answer;
    expect(answer).toBe(`Set OPENAI_API_KEY=${REDACTED} and rerun.`);
  });

  it('extra patterns add to the defaults; NO_REDACTION shows the text as given', () => {
    const redact = createRedactor({ extraPatterns: [/ACME-[0-9a-f]{8}/] });
    expect(redact(`ticket ACME-0badf00d and ${KEY}`)).toBe(`ticket ${REDACTED} and ${REDACTED}`);
    const plain = new CardState({ startedAt: 0, redact: NO_REDACTION, title: `use ${KEY}` });
    expect(plain.view(0).title).toBe(`use ${KEY}`);
  });

  it('open() redacts by default, takes { extraPatterns } and false, and names a bad value', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory', undefined, { title: `deploy with ${KEY}` });
    card.toolStarted('c1', 'shell', { command: `curl -H 'Authorization: Bearer 4f9c2e71b8a34d6e9f0a1b2c3d4e5f60' https://api` });
    card.toolFinished('c1', 'PASSWORD=hunter2hunter2');
    card.complete(`Done; the key was ${KEY}`);
    await settle();
    await card.finalDelivery;
    const shown = JSON.stringify(channel.messages.get('m1')!.history);
    expect(shown).not.toContain(KEY);
    expect(shown).not.toContain('4f9c2e71b8a34d6e9f0a1b2c3d4e5f60');
    expect(shown).not.toContain('hunter2hunter2');

    const off = cards.open('memory', undefined, { redaction: false });
    off.complete(`the key was ${KEY}`);
    await settle();
    await off.finalDelivery;
    expect(JSON.stringify(channel.messages.get('m2')!.history)).toContain(KEY);

    expect(() => cards.open('memory', undefined, { redaction: 'off' } as never)).toThrow(/^open redaction = "off": /);
    expect(() => cards.open('memory', undefined, { redaction: { extraPatterns: ['x'] } } as never)).toThrow(/^open redaction = .*extraPatterns/);
  });
});
