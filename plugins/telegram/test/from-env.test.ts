import { MissingEnvError } from '@progresscard/core/plugin';
import { describe, expect, it } from 'vitest';
import { TelegramConfigError, telegram } from '../src/index.js';

const TOKEN = '123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11';
const ENV = { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_CHAT_ID: ' -1001234567890\n' };

describe('telegram.fromEnv', () => {
  it('reads the documented variables (chat id as a number, topic) and takes overrides over them', () => {
    const plugin = telegram.fromEnv({ tickMs: 5000 }, { env: { ...ENV, TELEGRAM_THREAD_ID: '42', TELEGRAM_API_ROOT: 'http://127.0.0.1:9' } });
    expect(plugin.config).toMatchObject({ chatId: -1001234567890, threadId: 42, apiRoot: 'http://127.0.0.1:9', tickMs: 5000 });
    expect(telegram.fromEnv({ chatId: 4242 }, { env: ENV }).config.chatId).toBe(4242);
    expect(telegram.fromEnv({}, { env: ENV }).config.apiRoot).toBe('https://api.telegram.org');
  });

  it('names every missing variable at once; TELEGRAM_WEBHOOK_SECRET turns the buttons on', () => {
    expect(() => telegram.fromEnv({}, { env: {} })).toThrow(MissingEnvError);
    expect(() => telegram.fromEnv({}, { env: {} })).toThrow('telegram needs the environment variables TELEGRAM_BOT_TOKEN, TELEGRAM_CHAT_ID (unset or empty)');
    const plugin = telegram.fromEnv({}, { env: { ...ENV, TELEGRAM_WEBHOOK_SECRET: 'abc_DEF-1' } });
    expect(plugin.interaction).toBeDefined();
    expect(JSON.stringify(plugin.config)).not.toContain('abc_DEF-1');
  });

  it('a bad value names the field and variable, never the token', () => {
    const attempt = () => telegram.fromEnv({}, { env: { ...ENV, TELEGRAM_CHAT_ID: 'general' } });
    expect(attempt).toThrow(TelegramConfigError);
    expect(attempt).toThrow(/^telegram chatId \(TELEGRAM_CHAT_ID\) = "general" /);
    // It says what a chat id looks like, not zod's "Invalid input" for a union.
    expect(attempt).toThrow('expected a number such as -1001234567890 (a group or channel) or 4242 (a user, for a private chat), or @channelname');
    const badToken = () => telegram.fromEnv({}, { env: { ...ENV, TELEGRAM_BOT_TOKEN: 'not-a-token-secret' } });
    expect(badToken).toThrow(/telegram botToken \(TELEGRAM_BOT_TOKEN\)/);
    expect(badToken).not.toThrow(/not-a-token-secret/);
  });
});
