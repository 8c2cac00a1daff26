import { describe, expect, it } from 'vitest';
import { teamsBudgetKeys } from '../src/budget-keys.js';
import { TEAMS_CONVERSATION_WINDOWS, TEAMS_DEFAULTS, TEAMS_PERSONAL_CHAT_WINDOWS } from '../src/config.js';

describe('Teams budget keys', () => {
  const keys = teamsBudgetKeys('app-1', '19:group@thread.v2');

  it('every call draws from the app (first: a 429 pauses the channel) and from its conversation; the app id is hashed', () => {
    const [app, conversation] = keys({ kind: 'send', target: undefined }, TEAMS_DEFAULTS);
    expect(app).toEqual({ key: expect.stringMatching(/^teams:[0-9a-f]{12}$/), windows: TEAMS_DEFAULTS.budget });
    expect(app!.key).not.toContain('app-1');
    expect(conversation).toEqual({ key: `${app!.key}:conversation:19:group@thread.v2`, windows: TEAMS_CONVERSATION_WINDOWS });
  });

  it('an update and a stream chunk count in the conversation of their message; a 1:1 chat also has the hourly 1800', () => {
    const update = keys({ kind: 'update', target: undefined, message: { id: 'm1', extra: { conversationId: 'a:1user' } }, stream: 'append' }, TEAMS_DEFAULTS);
    expect(update[1]).toMatchObject({ key: expect.stringMatching(/:conversation:a:1user$/), windows: TEAMS_PERSONAL_CHAT_WINDOWS });
    expect(TEAMS_PERSONAL_CHAT_WINDOWS).toContainEqual({ limit: 1800, intervalMs: 3_600_000 });
    const elsewhere = keys({ kind: 'send', target: { conversationId: '19:channel@thread.tacv2' } }, TEAMS_DEFAULTS);
    expect(elsewhere[1]!.key).toMatch(/:conversation:19:channel@thread\.tacv2$/);
  });
});
