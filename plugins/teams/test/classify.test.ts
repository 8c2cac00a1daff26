import { describe, expect, it } from 'vitest';
import { classifyTeamsError } from '../src/transport/classify.js';
import { TeamsApiError, TeamsRequestError } from '../src/transport/routes.js';
import { TeamsTokenError } from '../src/transport/token.js';

const api = (status: number, code: string, message: string, retryAfterMs?: number) => new TeamsApiError('sendToConversation', status, code, message, retryAfterMs);

describe('Teams failures as the core sees them', () => {
  it.each([
    [api(429, 'ThrottledTooManyRequests', 'API calls quota exceeded', 3000), { kind: 'rate-limited', retryAfterMs: 3000 }],
    [api(401, 'Unauthorized', 'Authorization has been denied for this request.'), { kind: 'auth' }],
    [new TeamsTokenError(401, 'invalid_client'), { kind: 'auth' }],
    [api(403, 'ContentStreamNotAllowed', 'Content stream was canceled by user'), { kind: 'stopped-by-user' }],
    [api(403, 'ContentStreamNotAllowed', 'Content stream was cancelled by user.'), { kind: 'stopped-by-user' }],
    [api(403, 'ContentStreamNotAllowed', 'Content stream finished due to exceeded streaming time.'), { kind: 'stream-ended' }],
    [api(403, 'ContentStreamNotAllowed', 'Content stream is not allowed on an already completed streamed message'), { kind: 'stream-ended' }],
    [api(403, 'ContentStreamNotAllowed', 'Content stream is not allowed'), { kind: 'rejected' }],
    [api(403, 'BotDisabledByAdmin', 'The bot is disabled'), { kind: 'target' }],
    [api(404, 'ActivityNotFound', 'Activity not found.'), { kind: 'gone' }],
    [api(404, 'ConversationNotFound', 'Conversation not found.'), { kind: 'target' }],
    [api(413, 'MessageSizeTooBig', 'Message size too large.'), { kind: 'rejected' }],
    [api(412, 'PreconditionFailed', ''), { kind: 'transient' }],
    [api(502, '', 'Bad gateway'), { kind: 'transient' }],
    [new TeamsRequestError('sendToConversation', 'TimeoutError'), { kind: 'transient' }],
    [new Error('boom'), { kind: 'transient' }],
  ])('%s → %o', (error, expected) => {
    expect(classifyTeamsError(error)).toMatchObject(expected);
  });
});
