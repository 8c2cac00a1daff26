import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { slack } from '../src/index.js';

const token = 'xoxb-1234-secret-token';
const plugin = slack({ botToken: token, channel: 'C0TEAM', budget: [{ limit: 40, intervalMs: 60_000 }] });
const settings = { ...plugin.defaults, ...plugin.overrides };

describe('slack budget keys (limits per method per workspace; one post per second per channel)', () => {
  it('a card post draws from chat.postMessage (Special tier, not the Tier 3 budget) and its channel, the channel given to open() winning', () => {
    const keys = plugin.budgetKeys!({ kind: 'send', target: undefined }, settings);
    expect(keys.map((key) => key.key)).toEqual([expect.stringMatching(/^slack:[0-9a-f]{12}:chat\.postMessage$/), 'slack:channel:C0TEAM']);
    expect(keys[0]!.windows).toEqual([{ limit: 300, intervalMs: 60_000 }]);
    expect(keys[1]!.windows).toEqual([{ limit: 1, intervalMs: 1000 }]);
    expect(plugin.budgetKeys!({ kind: 'send', target: 'C0OTHER' }, settings)[1]!.key).toBe('slack:channel:C0OTHER');
    expect(plugin.budgetKeys!({ kind: 'send', target: { channel: 'C0THIRD' } }, settings)[1]!.key).toBe('slack:channel:C0THIRD');
  });

  it('an update draws from chat.update only (the channel\'s Tier 3 budget), apart from posts', () => {
    const [update, ...others] = plugin.budgetKeys!({ kind: 'update', target: undefined, message: { id: '1700000000.000100' } }, settings);
    expect(others).toEqual([]);
    expect(update!.windows).toEqual([{ limit: 40, intervalMs: 60_000 }]);
    const [post] = plugin.budgetKeys!({ kind: 'send', target: undefined }, settings);
    expect(update!.key).toMatch(/:chat\.update$/);
    expect(update!.key.replace('chat.update', '')).toBe(post!.key.replace('chat.postMessage', ''));
  });

  it('keys name the workspace by a digest, never the bot token', () => {
    const other = slack({ botToken: 'xoxb-9999-other', channel: 'C0TEAM' });
    const keys = [...plugin.budgetKeys!({ kind: 'send', target: undefined }, settings), ...plugin.budgetKeys!({ kind: 'update', target: undefined, message: { id: '1' } }, settings)];
    expect(inspect(keys)).not.toContain('secret');
    expect(other.budgetKeys!({ kind: 'update', target: undefined, message: { id: '1' } }, settings)[0]!.key).not.toBe(keys[2]!.key);
  });
});
