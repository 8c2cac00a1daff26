import { createHmac, randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import type { CallHistory } from '../common/history.js';
import type { SlackMessageStore, StoredSlackMessage } from './messages.js';

/** The app's interactivity settings ("Interactivity & Shortcuts": Request URL) and its signing secret. */
export interface SlackInteractivityConfig {
  readonly url: string;
  readonly signingSecret: string;
  /** How long the app has to acknowledge, in ms (Slack: 3000). */
  readonly timeoutMs?: number;
}

/** A click a test makes on a message's button (or Enter in its input), as a Slack user would. */
export interface SlackClick {
  readonly ts: string;
  /** The clicking user's id (`U…`). */
  readonly user: string;
  readonly name?: string;
  /** The button's text or `action_id`; for the input, its label or `action_id`. */
  readonly button: string;
  /** Text typed into the input (sent when Enter is pressed). */
  readonly input?: string;
  /** The blocks the user's client shows, when it is not the current message (a stale client). */
  readonly shownBlocks?: unknown[];
  /** How long to wait for the app's `response_url` post, in ms (default 2000; 0: do not wait). */
  readonly awaitResponseMs?: number;
}

/**
 * What came of a click. `error`: `interactivity-not-configured` (no Request URL: Slack sends
 * nothing and the client shows a warning), `no-such-button`, `timeout` (no acknowledgement within
 * `timeoutMs`), `http-error` (a non-2xx acknowledgement). `response`: what the app posted to the
 * payload's `response_url`, if it did within `awaitResponseMs`.
 */
export interface SlackClickResult {
  readonly triggerId?: string;
  readonly status?: number;
  readonly response?: Record<string, unknown>;
  /** True when the `response_url` post replaced the message (`replace_original`). */
  readonly cardUpdated: boolean;
  /** Texts posted as `ephemeral` for the clicking user. */
  readonly ephemeral: readonly string[];
  readonly error?: 'interactivity-not-configured' | 'no-such-button' | 'timeout' | 'http-error';
}

/** Route name of delivered interaction payloads in the call history. */
export const SLACK_INTERACTION_ROUTE = 'interactivity.block_actions';

type Json = Record<string, unknown>;

/** The element a click names: a button of an `actions` block, or the `plain_text_input` of an `input` block. */
function findAction(blocks: unknown, name: string): { block: Json; element: Json } | undefined {
  for (const block of (Array.isArray(blocks) ? blocks : []) as Json[]) {
    if (block.type === 'actions') {
      for (const element of (block.elements ?? []) as Json[]) {
        if (element.type === 'button' && (element.action_id === name || (element.text as Json | undefined)?.text === name)) return { block, element };
      }
    }
    if (block.type === 'input' && block.dispatch_action === true) {
      const element = block.element as Json;
      if (element?.action_id === name || (block.label as Json | undefined)?.text === name) return { block, element };
    }
  }
  return undefined;
}

/**
 * Slack interactivity of the emulator: a click becomes a signed `block_actions` payload POSTed
 * form-encoded (`payload=<JSON>`) to the Request URL, with `X-Slack-Request-Timestamp` and
 * `X-Slack-Signature` (`v0=` HMAC-SHA256 of `v0:<ts>:<body>`;
 * https://api.slack.com/authentication/verifying-requests-from-slack); the app's posts to the
 * payload's `response_url` replace the message (`replace_original`) or reach the clicking user
 * alone (`ephemeral`) (https://api.slack.com/interactivity/handling#message_responses).
 */
export class SlackInteractivityEmulator {
  private config: SlackInteractivityConfig | undefined;
  /** The emulator's base URL, for `response_url` (set when it listens). */
  baseUrl = '';
  private readonly sent = new Map<string, { ts: string; user: string; body: string }>();
  private readonly responses = new Map<string, Json[]>();
  private readonly waiting = new Map<string, () => void>();

  constructor(
    private readonly store: SlackMessageStore,
    private readonly history: CallHistory,
    private readonly clock: () => number,
    private readonly notify: (ts: string) => void,
  ) {}

  configure(config: SlackInteractivityConfig | undefined): void {
    this.config = config;
  }

  /** Serves `POST /interactivity/respond/:triggerId` (the `response_url`). */
  mount(app: Hono): void {
    app.post('/interactivity/respond/:triggerId', async (c) => {
      const triggerId = c.req.param('triggerId');
      const sent = this.sent.get(triggerId);
      const body = (await c.req.json().catch(() => undefined)) as Json | undefined;
      if (!sent || !body) return c.json({ ok: false, error: 'invalid_response_url' }, 404);
      this.apply(sent.ts, body);
      this.responses.set(triggerId, [...(this.responses.get(triggerId) ?? []), body]);
      this.waiting.get(triggerId)?.();
      return c.json({ ok: true });
    });
  }

  async click(click: SlackClick): Promise<SlackClickResult> {
    const message = this.store.require(click.ts);
    const found = findAction(click.shownBlocks ?? message.blocks, click.button);
    if (!found) return { cardUpdated: false, ephemeral: [], error: 'no-such-button' };
    if (!this.config) return { cardUpdated: false, ephemeral: [], error: 'interactivity-not-configured' };
    const triggerId = `${Math.floor(this.clock() / 1000)}.${randomBytes(6).toString('hex')}`;
    const actionTs = (this.clock() / 1000).toFixed(6);
    const { block, element } = found;
    const action =
      element.type === 'button'
        ? { type: 'button', action_id: element.action_id, block_id: block.block_id, text: element.text, value: element.value, ...(element.style ? { style: element.style } : {}), action_ts: actionTs }
        : { type: 'plain_text_input', action_id: element.action_id, block_id: block.block_id, value: click.input ?? '', action_ts: actionTs };
    const payload = {
      type: 'block_actions',
      user: { id: click.user, username: click.name ?? click.user, name: click.name ?? click.user, team_id: 'T0PROGRESS' },
      api_app_id: 'A0PROGRESS',
      container: { type: 'message', message_ts: message.ts, channel_id: message.channel, is_ephemeral: false },
      trigger_id: triggerId,
      team: { id: 'T0PROGRESS' },
      channel: { id: message.channel },
      message: { type: 'message', ts: message.ts, text: message.text, blocks: click.shownBlocks ?? message.blocks },
      response_url: `${this.baseUrl}/interactivity/respond/${triggerId}`,
      actions: [action],
    };
    this.sent.set(triggerId, { ts: message.ts, user: click.user, body: `payload=${encodeURIComponent(JSON.stringify(payload))}` });
    const responded = this.responseOf(triggerId, click.awaitResponseMs ?? 2000);
    const acked = await this.post(triggerId);
    if (acked.error) return { triggerId, ...acked, cardUpdated: false, ephemeral: [] };
    await responded;
    return { triggerId, status: acked.status, ...this.outcome(triggerId) };
  }

  /** Sends an earlier payload again, unchanged (a client that sent it twice); does not wait for a response. */
  async retry(triggerId: string): Promise<SlackClickResult> {
    if (!this.sent.has(triggerId)) throw new Error(`retry: no payload with trigger_id ${JSON.stringify(triggerId)} was sent`);
    const acked = await this.post(triggerId);
    return { triggerId, ...acked, ...this.outcome(triggerId) };
  }

  private outcome(triggerId: string): { response?: Json; cardUpdated: boolean; ephemeral: string[] } {
    const posted = this.responses.get(triggerId) ?? [];
    const ephemeral = posted.filter((r) => r.response_type === 'ephemeral').map((r) => String(r.text ?? ''));
    return { response: posted[0], cardUpdated: posted.some((r) => r.replace_original === true), ephemeral };
  }

  private responseOf(triggerId: string, waitMs: number): Promise<void> {
    if (waitMs <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, waitMs);
      const waiting = this.waiting;
      function done() {
        clearTimeout(timer);
        waiting.delete(triggerId);
        resolve();
      }
      waiting.set(triggerId, done);
    });
  }

  private async post(triggerId: string): Promise<{ status?: number; error?: SlackClickResult['error'] }> {
    const config = this.config;
    if (!config) return { error: 'interactivity-not-configured' };
    const { ts, body } = this.sent.get(triggerId)!;
    const timestamp = String(Math.floor(this.clock() / 1000));
    const signature = `v0=${createHmac('sha256', config.signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature };
    const record = (status: number) =>
      this.history.record({ route: SLACK_INTERACTION_ROUTE, key: ts, outcome: status >= 200 && status < 300 ? 'accepted' : 'rejected', status, code: 0, msg: `trigger_id ${triggerId}` });
    try {
      const answer = await fetch(config.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(config.timeoutMs ?? 3000) });
      await answer.arrayBuffer();
      record(answer.status);
      return answer.ok ? { status: answer.status } : { status: answer.status, error: 'http-error' };
    } catch {
      record(0);
      return { error: 'timeout' };
    }
  }

  /** A `response_url` post: `replace_original` replaces the message's text and blocks (ephemeral posts change nothing). */
  private apply(ts: string, body: Json): void {
    if (body.replace_original !== true || body.response_type === 'ephemeral') return;
    const message: StoredSlackMessage | undefined = this.store.get(ts);
    if (message?.state !== 'live') return;
    if (typeof body.text === 'string') message.text = body.text;
    if (Array.isArray(body.blocks)) message.blocks = body.blocks;
    message.updatedAt = this.clock();
    message.updates += 1;
    this.notify(ts);
  }
}
