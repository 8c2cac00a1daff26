import { LATE_SEND_ANSWER_MS, SentMessages, type CallFailure, type CardTransport, type LateAnswer, type MessageRef, type ReplyRequest, type SendRequest, type UpdateRequest } from '@progresscard/core/plugin';
import { TEAMS_CONVERSATION_WINDOWS, TEAMS_PERSONAL_CHAT_WINDOWS, conversationTypeOf, type TeamsConfig } from '../config.js';
import { teamsActivityProblems } from '../render/guards.js';
import { TEAMS_LIMITS, type TeamsLimits } from '../render/limits.js';
import { activityOf, type TeamsActivity, type TeamsMessage } from '../render/payload.js';
import { TeamsLocalError, classifyTeamsError } from './classify.js';
import { callConnector, type TeamsConnectorRoute } from './routes.js';
import { ConversationSendWindows } from './send-windows.js';
import { conversationOf, type TeamsConversationRef, type TeamsTarget } from './target.js';
import { TeamsTokenSource } from './token.js';

/** What the transport needs of the config. */
export type TeamsTransportConfig = Pick<TeamsConfig, 'appId' | 'appPassword' | 'tenantId' | 'loginUrl' | 'serviceUrl' | 'conversationId' | 'conversationType' | 'conversationBudget' | 'requestTimeoutMs'>;

/**
 * Sends and updates cards over the Bot Connector REST API at the conversation's `serviceUrl`: a card is an
 * activity with one Adaptive Card attachment, sent to the conversation and replaced in place with `PUT`
 * (https://learn.microsoft.com/microsoftteams/platform/bots/how-to/update-and-delete-bot-messages); a
 * continuation part is a reply to the card's activity. Every call carries the bot's client-credentials token
 * ({@link TeamsTokenSource}). The connector takes no idempotency key and a bot cannot list a conversation's
 * activities through it, so sends are remembered by the core's key ({@link SentMessages}): a repeated key answers
 * the same activity, and a send that timed out is still listened to for a minute, so the activity Teams made
 * late is the retry's, or deleted as a duplicate once the retry's exists. An answer that never comes (the
 * connection died after Teams applied the send) leaves one duplicate (UNCONFIRMED whether Teams dedupes).
 */
export class TeamsTransport implements CardTransport<TeamsMessage, TeamsTarget> {
  readonly #config: TeamsTransportConfig;
  readonly #limits: TeamsLimits;
  readonly #sent = new SentMessages((message) => this.#deleteOrphan(message));
  readonly #windows: ConversationSendWindows;
  readonly tokens: TeamsTokenSource;

  constructor(config: TeamsTransportConfig, options: { limits?: TeamsLimits; tokens?: TeamsTokenSource } = {}) {
    this.#config = config;
    this.#limits = options.limits ?? TEAMS_LIMITS;
    this.tokens = options.tokens ?? new TeamsTokenSource(config);
    this.#windows = new ConversationSendWindows(
      (id) => config.conversationBudget ?? (conversationTypeOf(id, id === config.conversationId ? config.conversationType : undefined) === 'personal' ? TEAMS_PERSONAL_CHAT_WINDOWS : TEAMS_CONVERSATION_WINDOWS),
    );
  }

  /** The conversation of a target (the configured one when absent). */
  conversation(target: TeamsTarget | undefined): TeamsConversationRef {
    return conversationOf(target) ?? { id: this.#config.conversationId, type: conversationTypeOf(this.#config.conversationId, this.#config.conversationType) };
  }

  /** The `serviceUrl` of a conversation or message. */
  serviceUrlOf(where: { serviceUrl?: unknown } | undefined): string {
    return typeof where?.serviceUrl === 'string' ? where.serviceUrl : this.#config.serviceUrl;
  }

  async send(request: SendRequest<TeamsMessage, TeamsTarget>): Promise<MessageRef> {
    const key = request.idempotencyKey;
    const known = this.#sent.known(key);
    if (known) return known;
    const activity = this.#guarded(activityOf(request.payload));
    const conversation = request.replyTo ? { id: String(request.replyTo.extra?.conversationId ?? this.conversation(request.target).id), serviceUrl: request.replyTo.extra?.serviceUrl } : this.conversation(request.target);
    const serviceUrl = this.serviceUrlOf(conversation);
    const refOf = (id: string): MessageRef => ({ id, extra: { conversationId: conversation.id, serviceUrl } });
    // A send that timed out may still be applied: its late answer gives the retry that activity, or has the retry's duplicate deleted.
    const late: LateAnswer<{ id?: string }> = { windowMs: LATE_SEND_ANSWER_MS, onAnswer: (answer) => answer.id && this.#sent.lateAnswer(key, refOf(answer.id)) };
    const answer = request.replyTo
      ? await this.call(serviceUrl, 'replyToActivity', [conversation.id, request.replyTo.id], activity, late)
      : await this.call(serviceUrl, 'sendToConversation', [conversation.id], activity, late);
    if (!answer.id) throw new TeamsLocalError('the connector answered a send without an activity id');
    return this.#sent.answered(key, refOf(answer.id));
  }

  /**
   * Deletes a duplicate card a late send answer revealed (a bot may delete its own activities,
   * https://learn.microsoft.com/microsoftteams/platform/bots/how-to/update-and-delete-bot-messages#delete-messages);
   * tried up to three times on 429 or no answer, then left. Never rejects.
   */
  async #deleteOrphan(message: MessageRef): Promise<void> {
    const conversationId = String(message.extra?.conversationId ?? this.#config.conversationId);
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      try {
        await this.call(this.serviceUrlOf(message.extra), 'deleteActivity', [conversationId, message.id]);
        return;
      } catch (error) {
        const failure = this.classify(error);
        if (failure.kind !== 'rate-limited' && failure.kind !== 'transient') return;
        await new Promise((resolve) => setTimeout(resolve, failure.kind === 'rate-limited' ? (failure.retryAfterMs ?? 1000 * attempt) : 1000 * attempt));
      }
    }
  }

  async update(request: UpdateRequest<TeamsMessage>): Promise<void> {
    const activity = this.#guarded(activityOf(request.payload));
    const conversationId = String(request.message.extra?.conversationId ?? this.#config.conversationId);
    await this.call(this.serviceUrlOf(request.message.extra), 'updateActivity', [conversationId, request.message.id], activity);
  }

  /**
   * The completion ping: a short message replying to the card that @mentions the requester (its `id` the
   * user's Teams id, `29:…`, as in the `from` of the activities Teams sent): `<at>Name</at>` in the text and a
   * `mention` entity `{ mentioned: { id, name }, text }` naming the same tag, which notifies that user
   * (https://learn.microsoft.com/microsoftteams/platform/bots/how-to/conversations/channel-and-group-conversations#add-mentions-to-your-messages;
   * the shape of Microsoft's bot samples, `Mention { Mentioned = From, Text = "<at>…</at>" }`). The name is
   * escaped as XML text (`<`, `>`, `&`).
   */
  async reply(request: ReplyRequest<TeamsTarget>): Promise<MessageRef> {
    const mention = request.mention;
    if (!mention) return this.send({ target: request.target, payload: { text: request.text, summary: request.text }, idempotencyKey: request.idempotencyKey, replacing: false, replyTo: request.message });
    const name = (mention.name ?? mention.id).replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);
    const tag = `<at>${name}</at>`;
    const entities = [{ type: 'mention', text: tag, mentioned: { id: mention.id, name: mention.name ?? mention.id } }];
    return this.send({ target: request.target, payload: { text: `${tag} ${request.text}`, summary: request.text, entities }, idempotencyKey: request.idempotencyKey, replacing: false, replyTo: request.message });
  }

  async refreshAuth(): Promise<void> {
    this.tokens.invalidate();
  }

  classify(error: unknown): CallFailure {
    return classifyTeamsError(error);
  }

  /** One connector call with the bot's token, once its conversation's windows have room as Teams counts them ({@link ConversationSendWindows}, told when the answer came). */
  async call<R extends TeamsConnectorRoute>(serviceUrl: string, route: R, args: string[], activity?: TeamsActivity, late?: LateAnswer<{ id?: string }>): Promise<{ id?: string }> {
    const bearer = await this.tokens.get();
    const sent = await this.#windows.admit(args[0]!);
    try {
      return await callConnector({ serviceUrl, bearer, timeoutMs: this.#config.requestTimeoutMs }, route, args as never, activity, late);
    } finally {
      sent.answered();
    }
  }

  #guarded(activity: TeamsActivity): TeamsActivity {
    const problems = teamsActivityProblems(activity, this.#limits);
    if (problems.length > 0) throw new TeamsLocalError(`activity not sent, Teams would refuse it: ${problems.join('; ')}`);
    return activity;
  }
}
