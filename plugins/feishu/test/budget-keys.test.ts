import { describe, expect, it } from 'vitest';
import { feishu } from '../src/index.js';

const plugin = feishu({ appId: 'cli_abc', appSecret: 'secret', receiveId: 'oc_team', budget: [{ limit: 40, intervalMs: 1000 }] });
const settings = { ...plugin.defaults, ...plugin.overrides };

describe('feishu budget keys (limits per API, per app; 5/s per chat and per message)', () => {
  it('a card send draws from the app\'s create route and the receiving chat, shared by every bot in it', () => {
    expect(plugin.budgetKeys!({ kind: 'send', target: undefined }, settings)).toEqual([
      { key: 'feishu:cli_abc:create', windows: [{ limit: 40, intervalMs: 1000 }] },
      { key: 'feishu:receiver:chat_id:oc_team', windows: [{ limit: 5, intervalMs: 1000 }] },
    ]);
    expect(plugin.budgetKeys!({ kind: 'send', target: { receiveIdType: 'open_id', receiveId: 'ou_1' } }, settings)[1]!.key).toBe('feishu:receiver:open_id:ou_1');
  });

  it('a continuation part is a reply: the reply route, same chat', () => {
    const keys = plugin.budgetKeys!({ kind: 'send', target: 'oc_other', replyTo: { id: 'om_main' } }, settings);
    expect(keys.map((key) => key.key)).toEqual(['feishu:cli_abc:reply', 'feishu:receiver:chat_id:oc_other']);
  });

  it('a patch draws from the app\'s patch route and its message', () => {
    const keys = plugin.budgetKeys!({ kind: 'update', target: undefined, message: { id: 'om_7' } }, settings);
    expect(keys).toEqual([
      { key: 'feishu:cli_abc:patch', windows: [{ limit: 40, intervalMs: 1000 }] },
      { key: 'feishu:message:om_7', windows: [{ limit: 5, intervalMs: 1000 }] },
    ]);
  });

  it('a card replying to the message that triggered the run is a reply too', () => {
    const keys = plugin.budgetKeys!({ kind: 'send', target: undefined, replyToMessage: { messageId: 'om_question', inThread: true } }, settings);
    expect(keys.map((key) => key.key)).toEqual(['feishu:cli_abc:reply', 'feishu:receiver:chat_id:oc_team']);
  });

  it('image uploads and reactions draw from their own routes of the app', () => {
    expect(plugin.budgetKeys!({ kind: 'image-upload', target: undefined }, settings)).toEqual([{ key: 'feishu:cli_abc:image', windows: [{ limit: 40, intervalMs: 1000 }] }]);
    expect(plugin.budgetKeys!({ kind: 'reaction', target: undefined, message: { id: 'om_7' } }, settings)).toEqual([{ key: 'feishu:cli_abc:reaction', windows: [{ limit: 40, intervalMs: 1000 }] }]);
  });
});
