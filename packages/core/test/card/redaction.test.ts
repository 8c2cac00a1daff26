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

// Shapes found by the breaker round: secrets of the channels we ship and common places for tokens.
const TELEGRAM = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ';
const DISCORD = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GAbCdE.abcdefghijklmnopqrstuvwxyz0123456789ab';

describe('secret redaction: shapes that slipped through', () => {
  it("a Telegram bot token inside a Bot API URL (…/bot<token>/sendMessage), as a curl tool line shows it", () => {
    expect(redactSecrets(`curl https://api.telegram.org/bot${TELEGRAM}/sendMessage`)).toBe(`curl https://api.telegram.org/bot${REDACTED}/sendMessage`);
  });

  it('a Discord bot token, bare or after a word', () => {
    expect(redactSecrets(`the bot token is ${DISCORD}`)).toBe(`the bot token is ${REDACTED}`);
  });

  it('a Slack app-level token (xapp-, Socket Mode)', () => {
    expect(redactSecrets('SLACK connect with xapp-1-A0123456789-1234567890123-abcdef0123456789abcdef0123456789')).toBe(`SLACK connect with ${REDACTED}`);
  });

  it('a token in a URL query string', () => {
    expect(redactSecrets('GET https://example.com/cb?access_token=abcdef0123456789abcdef0123&x=1')).toBe(`GET https://example.com/cb?access_token=${REDACTED}&x=1`);
    expect(redactSecrets('https://api.example.com/v1?user=7&api_key=abcdef0123456789abcdef')).toBe(`https://api.example.com/v1?user=7&api_key=${REDACTED}`);
  });

  it('a quoted secret with spaces is redacted whole, not only its first word', () => {
    expect(redactSecrets('DB_PASSWORD="correct horse battery staple"')).toBe(`DB_PASSWORD="${REDACTED}"`);
    expect(redactSecrets('{"password": "correct horse battery staple"}')).toBe(`{"password": "${REDACTED}"}`);
  });
});

describe('secret redaction: ordinary text stays', () => {
  it('prose after "Authorization:" is not a credential', () => {
    const text = 'Authorization: required for every request';
    expect(redactSecrets(text)).toBe(text);
  });

  it('a branch or package name starting with sk- is not an API key', () => {
    const text = 'git checkout -b sk-learn-experiments-branch-name-long';
    expect(redactSecrets(text)).toBe(text);
  });
});
