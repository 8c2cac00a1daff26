import { Hono, type Context } from 'hono';
import { ChangeFeed } from '../common/changes.js';
import { systemClock, type Clock } from '../common/clock.js';
import { delay } from '../common/delay.js';
import { FaultInjector } from '../common/faults.js';
import { CallHistory, type CallFilter, type CallRecord, type RouteCounts } from '../common/history.js';
import { InFlightTracker } from '../common/in-flight.js';
import { countOnArrival, SlidingWindowLimiter } from '../common/rate-limiter.js';
import { listen } from '../common/server.js';
import { SLACK_ROUTES, SLACK_ROUTE_NAMES, SLACK_ROUTE_SCOPES, SlackErrors, type SlackError, type SlackRoute } from './codes.js';
import { DEFAULT_SLACK_LIMITS, type SlackLimits } from './limits.js';
import { SlackInteractivityEmulator, type SlackClick, type SlackClickResult, type SlackInteractivityConfig } from './interactivity.js';
import { channelHistory, parseMetadata, threadReplies } from './listing.js';
import { SlackMessageControlError, SlackMessageStore, type SlackMessageState, type StoredSlackMessage } from './messages.js';
import { SlackStreams, type SlackOutcome, type SlackThreadStatus } from './streams.js';
import { SlackFiles, type StoredSlackFile } from './files.js';
import { messageContent, readArgs } from './request.js';
import { slackSnapshot, type SlackMessageSnapshot } from './snapshot.js';

/** The bot token and channel the emulator accepts when no options are given. */
export const DEFAULT_SLACK_WORKSPACE = { botToken: 'xoxb-progresscard-emulator', teamId: 'T0PROGRESS', channel: 'C0PROGRESS' } as const;

/** Options of {@link createSlackEmulator}. */
export interface SlackEmulatorOptions {
  /** Bot tokens the emulator accepts (default {@link DEFAULT_SLACK_WORKSPACE}'s). */
  readonly botTokens?: readonly string[];
  /** Channels the bot is a member of (default {@link DEFAULT_SLACK_WORKSPACE}'s). */
  readonly channels?: readonly string[];
  /** Channels that exist but the bot is not in (answer `not_in_channel`). */
  readonly channelsWithoutBot?: readonly string[];
  readonly limits?: Partial<SlackLimits>;
  readonly clock?: Clock;
  readonly host?: string;
  readonly port?: number;
  /** Host names accepted in `Host`/`Origin` besides loopback and the listen host (see `ListenOptions.allowedHosts`). */
  readonly allowedHosts?: readonly string[];
  /**
   * Scopes the bot token lacks, e.g. `['chat:write']`: methods needing one answer `missing_scope`
   * naming it in `needed` (see `SLACK_ROUTE_SCOPES`). Default none.
   */
  readonly missingScopes?: readonly string[];
}

/** A change of one message (for the preview page). */
export interface SlackMessageChange {
  readonly platform: 'slack';
  readonly kind: 'posted' | 'updated' | 'deleted' | 'edit-closed';
  readonly at: number;
  readonly message: SlackMessageSnapshot;
}

/** An emulator without a server. */
export interface SlackEmulatorCore {
  /** The Hono app serving `/api/<method>`. */
  readonly app: Hono;
  readonly limits: SlackLimits;
  /** Fault rules on routes `auth.test`, `chat.postMessage`, `chat.update`; the key of chat.update is the message `ts`. */
  readonly faults: FaultInjector;
  /** Deletes a message: later chat.update calls answer `message_not_found`. @throws SlackMessageControlError */
  deleteMessage(ts: string): SlackMessageSnapshot;
  /** Closes a message's edit window: later chat.update calls answer `edit_window_closed`. @throws SlackMessageControlError */
  closeEditWindow(ts: string): SlackMessageSnapshot;
  /**
   * A person writes `text` in `channel` (a top-level message, or a reply in `threadTs`): what pushes a
   * card up the chat. Returns its snapshot. @throws SlackMessageControlError for an unknown channel.
   */
  postUserMessage(channel: string, text: string, options?: { user?: string; threadTs?: string }): SlackMessageSnapshot;
  /** Every message, oldest first; with `threadTs`, only the replies in that message's thread. */
  messages(filter?: { threadTs?: string }): SlackMessageSnapshot[];
  message(ts: string): SlackMessageSnapshot | undefined;
  calls(filter?: CallFilter): CallRecord[];
  counts(): Record<string, RouteCounts>;
  onChange(listener: (change: SlackMessageChange) => void): () => void;
  /** Sets (or, with undefined, removes) the app's interactivity Request URL and signing secret. */
  configureInteractivity(config: SlackInteractivityConfig | undefined): void;
  /**
   * Clicks a button (or presses Enter in an input) of message `click.ts` as user `click.user`: POSTs
   * the signed `block_actions` payload and waits for the app's `response_url` post.
   * @throws SlackMessageControlError for an unknown message.
   */
  click(click: SlackClick): Promise<SlackClickResult>;
  /** Sends an earlier payload again with the same `trigger_id`. */
  retryClick(triggerId: string): Promise<SlackClickResult>;
  /** The base URL `response_url`s point at (the started emulator sets its own). */
  setPublicBaseUrl(url: string): void;
  /**
   * The user presses Stop on streamed message `ts` (Slack's own stop of an agent stream): later
   * appendStream / stopStream calls answer `stopped_by_user`.
   * @throws SlackMessageControlError when `ts` is not a message that streams now.
   */
  stopStreamByUser(ts: string): SlackMessageSnapshot;
  /** The status `assistant.threads.setStatus` set on a thread, until it clears (120 s, or the app's next message there). */
  threadStatus(channel: string, threadTs: string): SlackThreadStatus | undefined;
  /** Every file uploaded through files.getUploadURLExternal, in upload order, with its bytes and where it was shared. */
  files(): StoredSlackFile[];
}

/** A running Slack emulator. */
export interface SlackEmulator extends SlackEmulatorCore {
  /** `http://127.0.0.1:<port>`; the Web API lives under `${baseUrl}/api/`. */
  readonly baseUrl: string;
  /** `${baseUrl}/api/`: pass it as `slackApiUrl` of `@slack/web-api`. */
  readonly apiUrl: string;
  readonly port: number;
  close(): Promise<void>;
}

type Outcome = SlackOutcome;

const fail = (error: SlackError, key?: string): Outcome => ({ ok: false, error, key });

/**
 * Builds the Slack Web API emulator (auth.test, chat.postMessage, chat.update, the streaming methods
 * and assistant.threads.setStatus, see {@link SlackStreams}) without listening.
 * Limits and errors follow https://api.slack.com/methods/chat.postMessage,
 * https://api.slack.com/methods/chat.update and https://api.slack.com/apis/rate-limits.
 */
export function createSlackEmulator(options: SlackEmulatorOptions = {}): SlackEmulatorCore {
  const clock = options.clock ?? systemClock;
  const limits: SlackLimits = { ...DEFAULT_SLACK_LIMITS, ...options.limits };
  const tokens = new Set(options.botTokens ?? [DEFAULT_SLACK_WORKSPACE.botToken]);
  const missingScopes = new Set(options.missingScopes ?? []);
  const channels = new Set(options.channels ?? [DEFAULT_SLACK_WORKSPACE.channel]);
  const outsiders = new Set(options.channelsWithoutBot ?? []);
  const history = new CallHistory(clock);
  const inFlight = new InFlightTracker();
  const faults = new FaultInjector(clock, SLACK_ROUTE_NAMES);
  const store = new SlackMessageStore();
  const changes = new ChangeFeed<SlackMessageChange>();
  const postLimiter = new SlidingWindowLimiter(limits.postMessageWindows, clock);
  const updateLimiter = new SlidingWindowLimiter(limits.updateWindows, clock);
  const streams = new SlackStreams(store, limits, clock, (channel) => channelError(channel));
  const snapshot = (m: StoredSlackMessage): SlackMessageSnapshot => slackSnapshot(m, history, inFlight, streams);
  const notify = (kind: SlackMessageChange['kind'], ts: string) => {
    if (changes.size > 0) changes.emit({ platform: 'slack', kind, at: clock(), message: snapshot(store.require(ts)) });
  };

  /**
   * A call is counted in its rate-limit windows when it arrives, before any injected latency, as Slack
   * counts incoming requests (https://docs.slack.dev/apis/web-api/rate-limits): a slow answer must not move
   * it into a later window. It is uncounted when it is then refused for another reason.
   */
  const windowsOf = (route: SlackRoute, args: Record<string, unknown>, token: string): ReadonlyArray<readonly [SlidingWindowLimiter, string]> => {
    if (route === SLACK_ROUTES.postMessage) return typeof args.channel === 'string' ? [[postLimiter, args.channel]] : [];
    if (route === SLACK_ROUTES.update) return [[updateLimiter, token]];
    return streams.windowsOf(route, token);
  };

  const run = async (c: Context, route: SlackRoute, handler: (args: Record<string, unknown>, token: string, limited: SlackError | undefined) => Outcome, keyOf?: (args: Record<string, unknown>) => string | undefined) => {
    const receivedAt = clock();
    const args = await readArgs(c);
    const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? (typeof args.token === 'string' ? args.token : undefined);
    const arrival = countOnArrival(bearer && tokens.has(bearer) ? windowsOf(route, args, bearer) : []);
    let accepted = false;
    const key = keyOf?.(args);
    const leave = key ? inFlight.enter(key) : () => {};
    try {
      const decision = faults.onCall(route, key);
      await delay(decision.latencyMs);
      const request = { ...args, token: undefined };
      if (decision.response) {
        const body = decision.response.body as { error?: unknown } | undefined;
        history.record({
          route, key, outcome: 'rejected', status: decision.response.status, code: -1,
          msg: typeof body?.error === 'string' ? body.error : undefined, request, faultId: decision.responseRuleId, receivedAt,
        });
        return new Response(JSON.stringify(decision.response.body ?? { ok: false, error: 'fatal_error' }), {
          status: decision.response.status,
          headers: { 'content-type': 'application/json; charset=utf-8', ...decision.response.headers },
        });
      }
      const limited = arrival.refused && SlackErrors.ratelimited(Math.ceil(arrival.refused.retryAfterMs / 1000));
      const needed = SLACK_ROUTE_SCOPES[route];
      const outcome: Outcome = !bearer
        ? fail(SlackErrors.notAuthed(), key)
        : !tokens.has(bearer)
          ? fail(SlackErrors.invalidAuth(), key)
          : needed && missingScopes.has(needed)
            ? fail(SlackErrors.missingScope(needed, ['channels:read']), key)
            : handler(args, bearer, limited);
      if (outcome.ok) {
        accepted = true;
        history.record({ route, key: outcome.key ?? key, outcome: 'accepted', status: 200, code: 0, msg: 'ok', request, card: outcome.card, receivedAt });
        if (outcome.change && outcome.key) notify(outcome.change, outcome.key);
        return c.json({ ok: true, ...outcome.fields });
      }
      history.record({ route, key: outcome.key ?? key, outcome: 'rejected', status: outcome.error.status, code: -1, msg: outcome.error.error, request, receivedAt });
      return new Response(JSON.stringify({ ok: false, error: outcome.error.error, ...outcome.error.fields }), {
        status: outcome.error.status,
        headers: { 'content-type': 'application/json; charset=utf-8', ...outcome.error.headers },
      });
    } finally {
      if (!accepted) arrival.release();
      leave();
    }
  };

  const channelError = (channel: unknown): SlackError | undefined => {
    if (typeof channel !== 'string' || channel === '') return SlackErrors.channelNotFound();
    if (outsiders.has(channel)) return SlackErrors.notInChannel();
    if (!channels.has(channel)) return SlackErrors.channelNotFound();
    return undefined;
  };

  /** The message a call names by `args.ts`, keying its history and in-flight count. */
  const tsOf = (args: Record<string, unknown>) => (typeof args.ts === 'string' ? args.ts : undefined);

  /**
   * Message `args.ts` of `args.channel` that `token` posted, for chat.update and chat.delete: else
   * the error they answer (the channel's, `message_not_found`, or `notOwn`: `cant_update_message` /
   * `cant_delete_message`).
   */
  const ownMessage = (args: Record<string, unknown>, token: string, notOwn: () => SlackError): { ok: true; ts: string; message: StoredSlackMessage } | Extract<Outcome, { ok: false }> => {
    const ts = tsOf(args) ?? '';
    const channelProblem = channelError(args.channel);
    if (channelProblem) return { ok: false, error: channelProblem, key: ts };
    const message = store.get(ts);
    if (!message || message.channel !== args.channel || message.state === 'deleted') return { ok: false, error: SlackErrors.messageNotFound(), key: ts };
    if (message.botToken !== token) return { ok: false, error: notOwn(), key: ts };
    return { ok: true, ts, message };
  };

  const app = new Hono();
  app.post(`/api/${SLACK_ROUTES.authTest}`, (c) =>
    run(c, SLACK_ROUTES.authTest, () => ({ ok: true, fields: { url: 'https://progresscard.slack.com/', team: 'progresscard', team_id: DEFAULT_SLACK_WORKSPACE.teamId, user_id: 'U0BOT', bot_id: 'B0BOT' } })),
  );
  app.post(`/api/${SLACK_ROUTES.postMessage}`, (c) =>
    run(c, SLACK_ROUTES.postMessage, (args, token, limited) => {
      const channelProblem = channelError(args.channel);
      if (channelProblem) return fail(channelProblem);
      const channel = args.channel as string;
      const threadTs = typeof args.thread_ts === 'string' && args.thread_ts !== '' ? args.thread_ts : undefined;
      if (threadTs && store.get(threadTs)?.channel !== channel) return fail(SlackErrors.threadNotFound());
      const content = messageContent(args, limits);
      if (content.error) return fail(content.error);
      if (limited) return fail(limited);
      const now = clock();
      const broadcast = threadTs !== undefined && (args.reply_broadcast === true || args.reply_broadcast === 'true');
      const metadata = parseMetadata(args.metadata);
      if (metadata === 'bad') return fail(SlackErrors.invalidMetadataFormat());
      const message = store.add({ channel, ts: store.nextTs(now), threadTs, botToken: token, ...(broadcast ? { broadcast } : {}), ...(metadata ? { metadata } : {}), text: content.text, blocks: content.blocks, state: 'live', createdAt: now, updatedAt: now, updates: 0 });
      return { ok: true, key: message.ts, card: content.blocks, change: 'posted', fields: { channel, ts: message.ts, message: { type: 'message', text: message.text, ts: message.ts, ...(threadTs ? { thread_ts: threadTs } : {}) } } };
    }),
  );
  app.post(`/api/${SLACK_ROUTES.update}`, (c) =>
    run(
      c,
      SLACK_ROUTES.update,
      (args, token, limited) => {
        const found = ownMessage(args, token, SlackErrors.cantUpdateMessage);
        if (!found.ok) return found;
        const { ts, message } = found;
        if (message.state === 'edit-closed') return fail(SlackErrors.editWindowClosed(), ts);
        if (streams.isStreaming(message)) return fail(SlackErrors.streamingStateConflict(), ts);
        const content = messageContent(args, limits);
        if (content.error) return fail(content.error, ts);
        if (limited) return fail(limited, ts);
        message.text = content.text;
        if (content.blocks) message.blocks = content.blocks;
        message.updatedAt = clock();
        message.updates += 1;
        return { ok: true, key: ts, card: content.blocks, change: 'updated', fields: { channel: message.channel, ts, text: message.text } };
      },
      tsOf,
    ),
  );
  // Deletes a message the token posted, also one whose edit window closed (the emulator's
  // assumption: Slack documents no edit window for chat.delete, UNCONFIRMED for workspaces that
  // restrict deletion); https://docs.slack.dev/reference/methods/chat.delete
  app.post(`/api/${SLACK_ROUTES.delete}`, (c) =>
    run(
      c,
      SLACK_ROUTES.delete,
      (args, token) => {
        const found = ownMessage(args, token, SlackErrors.cantDeleteMessage);
        if (!found.ok) return found;
        const { ts, message } = found;
        store.transition(ts, 'deleted');
        return { ok: true, key: ts, change: 'deleted', fields: { channel: message.channel, ts } };
      },
      tsOf,
    ),
  );
  app.post(`/api/${SLACK_ROUTES.startStream}`, (c) => run(c, SLACK_ROUTES.startStream, (args, token, limited) => streams.start(args, token, limited)));
  app.post(`/api/${SLACK_ROUTES.appendStream}`, (c) => run(c, SLACK_ROUTES.appendStream, (args, token, limited) => streams.append(args, token, limited), tsOf));
  app.post(`/api/${SLACK_ROUTES.stopStream}`, (c) => run(c, SLACK_ROUTES.stopStream, (args, token, limited) => streams.stop(args, token, limited), tsOf));
  app.post(`/api/${SLACK_ROUTES.setStatus}`, (c) => run(c, SLACK_ROUTES.setStatus, (args) => streams.setStatus(args)));
  // conversations.history and conversations.replies (paging: `oldest`, `inclusive`, `limit`), see listing.ts
  app.post(`/api/${SLACK_ROUTES.history}`, (c) =>
    run(c, SLACK_ROUTES.history, (args) => {
      const channelProblem = channelError(args.channel);
      return channelProblem ? fail(channelProblem) : channelHistory(store, args);
    }),
  );
  app.post(`/api/${SLACK_ROUTES.replies}`, (c) =>
    run(c, SLACK_ROUTES.replies, (args) => {
      const channelProblem = channelError(args.channel);
      return channelProblem ? fail(channelProblem) : threadReplies(store, args);
    }),
  );
  const files = new SlackFiles(store, clock, limits.maxFileBytes, (channel) => channelError(channel));
  app.post(`/api/${SLACK_ROUTES.getUploadUrl}`, (c) => run(c, SLACK_ROUTES.getUploadUrl, (args) => files.getUploadUrl(args)));
  app.post(`/api/${SLACK_ROUTES.completeUpload}`, (c) => run(c, SLACK_ROUTES.completeUpload, (args, token) => files.complete(args, token)));
  files.mount(app);
  const interactivity = new SlackInteractivityEmulator(store, history, clock, (ts) => notify('updated', ts));
  interactivity.mount(app);
  app.notFound((c) => c.json({ ok: false, error: 'unknown_method' }, 404));
  app.onError((error, c) => c.json({ ok: false, error: 'fatal_error', detail: `(emulator) ${error.message}` }, 500));

  const control = (ts: string, to: SlackMessageState, kind: SlackMessageChange['kind']) => {
    store.transition(ts, to);
    notify(kind, ts);
    return snapshot(store.require(ts));
  };
  return {
    app,
    limits,
    faults,
    deleteMessage: (ts) => control(ts, 'deleted', 'deleted'),
    closeEditWindow: (ts) => control(ts, 'edit-closed', 'edit-closed'),
    postUserMessage: (channel, text, options = {}) => {
      if (!channels.has(channel)) throw new SlackMessageControlError(`no channel ${channel}`);
      const now = clock();
      const message = store.add({ channel, ts: store.nextTs(now), threadTs: options.threadTs, botToken: '', user: options.user ?? 'U0PERSON', text, blocks: undefined, state: 'live', createdAt: now, updatedAt: now, updates: 0 });
      notify('posted', message.ts);
      return snapshot(message);
    },
    messages: (filter = {}) => store.list().filter((m) => filter.threadTs === undefined || m.threadTs === filter.threadTs).map(snapshot),
    message: (ts) => {
      const found = store.get(ts);
      return found ? snapshot(found) : undefined;
    },
    calls: (filter) => history.list(filter),
    counts: () => history.counts(),
    onChange: (listener) => changes.subscribe(listener),
    configureInteractivity: (config) => interactivity.configure(config),
    click: (click) => interactivity.click(click),
    retryClick: (triggerId) => interactivity.retry(triggerId),
    setPublicBaseUrl: (url) => {
      interactivity.baseUrl = url;
      files.baseUrl = url;
    },
    stopStreamByUser: (ts) => {
      if (!streams.stopByUser(ts)) throw new SlackMessageControlError(`message ${ts} does not stream now`);
      notify('updated', ts);
      return snapshot(store.require(ts));
    },
    threadStatus: (channel, threadTs) => streams.status(channel, threadTs),
    files: () => files.list().map((file) => structuredClone(file)),
  };
}

/**
 * Starts the Slack emulator on loopback HTTP. Point `@slack/web-api` at it with
 * `new WebClient(token, { slackApiUrl: emulator.apiUrl })`.
 * @throws the listen error (e.g. `EADDRINUSE`).
 */
export async function startSlackEmulator(options: SlackEmulatorOptions = {}): Promise<SlackEmulator> {
  const core = createSlackEmulator(options);
  const server = await listen(core.app, { host: options.host, port: options.port, allowedHosts: options.allowedHosts });
  core.setPublicBaseUrl(server.baseUrl);
  return Object.assign(core, { baseUrl: server.baseUrl, apiUrl: `${server.baseUrl}/api/`, port: server.port, close: server.close });
}

export { SlackMessageControlError };
export type { SlackMessageSnapshot, SlackStreamSnapshot } from './snapshot.js';
