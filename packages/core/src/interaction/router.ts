import type { CardView, Locale } from '../card/view.js';
import type { ChannelPlugin } from '../plugin/contract.js';

/** What the router needs of a plugin: its id and its callbacks. */
export type InteractivePlugin = Pick<ChannelPlugin, 'id' | 'interaction'>;
import type { Logger } from '../shared/logger.js';
import { interactionCode } from '../card/interaction-state.js';
import { INTERACTION_TEXTS } from '../plugin/interaction-texts.js';
import type { InteractionUser } from '../events/contract.js';
import type { ClickReply, ControlClick } from '../plugin/contract.js';
import type { ClickRelay } from './click-relay.js';

/** Retried deliveries and decided interactions remembered (the oldest are forgotten first). */
const REMEMBERED = 2000;

/** How long decisions and reply codes are kept in the relay's notes, ms (a day). */
const NOTE_TTL_MS = 24 * 60 * 60 * 1000;

/** Who holds a card now (from the card store), as {@link ClickRouting.ownerOf} reports it. */
interface CardOwnership {
  /** The lease owner (a composition's owner id). */
  readonly owner: string;
  /** False once the card shows its final. */
  readonly open: boolean;
  readonly locale: Locale;
}

/**
 * What the router needs to hand clicks to other processes of the app (a shared store): the relay,
 * this composition's owner id, and who holds a card. Without it every click is decided here.
 */
export interface ClickRouting {
  readonly relay: ClickRelay;
  /** This composition's owner id on card leases. */
  readonly owner: string;
  /** Who holds card `cardId` now; undefined when no such card is stored (it ended). May reject. */
  ownerOf(cardId: string): Promise<CardOwnership | undefined>;
  /** How long to wait for the owner's answer, ms (within the platform's deadline: Feishu 3 s). */
  readonly forwardTimeoutMs: number;
}

/** What a card registers for one question (or its Stop button) with the {@link InteractionRouter}. */
export interface InteractionEntry {
  /** The interaction id; `stop` for a Stop button. */
  readonly interactionId: string;
  /** True when `cardId` is the card message the control may act on (the card's current one). */
  isCurrentCard(cardId: string): boolean;
  /** The card message the controls are on now (for text replies, which name no card). */
  currentCardId(): string;
  /** Language of the toasts. */
  locale(): Locale;
  /** Users who may decide; undefined: anyone. */
  readonly allowed?: ReadonlySet<string>;
  /**
   * Applies a click the rules let through. Returns the card after it (for the in-place callback
   * response) and the label of what was decided, or undefined when the answer is invalid.
   */
  accept(click: ControlClick): { readonly view: CardView; readonly label: string } | undefined;
}

/** Puts `key → value` in a map that keeps at most {@link REMEMBERED} entries. */
function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.set(key, value);
  if (map.size > REMEMBERED) map.delete(map.keys().next().value as K);
}

/**
 * The composition's click router: the plugins feed it verified clicks (see
 * `ChannelPlugin.interaction`), it applies the rules and hands decisions to the cards.
 * - a control of an earlier run or turn, or of a run that ended, does nothing (`stale`);
 * - only the allowed users may decide (`not-allowed`, a polite refusal);
 * - the first valid click wins, later ones hear who decided (`already-decided`);
 * - a retried callback (same `deliveryId`) gets the first reply again and changes nothing, so a
 *   decision reaches the agent exactly once.
 *
 * With {@link ClickRouting} (a shared store), a click for a card this process does not hold is
 * handed to the process that holds its lease, which applies the same rules: one process decides,
 * so the first click wins across processes. Decisions are noted in the relay, so a click after the
 * final (or after the owner died) hears who decided; a click whose owner does not answer in time
 * hears that the card's process is not answering (`unavailable`) and may be tried again.
 */
export class InteractionRouter {
  private readonly open = new Map<string, InteractionEntry>();
  private readonly stops = new Set<InteractionEntry>();
  /** Decided interaction (or `stop:<cardId>`) → who decided (undefined: the timeout). */
  private readonly decided = new Map<string, { by: string | undefined; locale: Locale }>();
  private readonly replies = new Map<string, ClickReply>();
  private readonly listening = new Map<InteractivePlugin, Promise<boolean>>();
  /**
   * Settles once clicks that other processes hand to this one reach it (the relay listens under
   * this composition's owner id; with Redis, once its channel is subscribed), or once that failed
   * (logged). Never rejects. A process claims a card's lease only after it: a click forwarded to
   * the new owner must find it listening.
   */
  readonly relayListening: Promise<void>;

  constructor(
    private readonly logger: Logger,
    private readonly routing?: ClickRouting,
  ) {
    this.relayListening = routing
      ? routing.relay.listen(routing.owner, async (click) => this.handleHere(click)).catch((error: unknown) => {
          this.logger.error(`clicks of other processes cannot reach this one: ${error instanceof Error ? error.message : String(error)}`);
        })
      : Promise.resolve();
  }

  /** Registers an open question (or, with id `stop`, a Stop button). */
  add(entry: InteractionEntry): void {
    if (entry.interactionId === 'stop') this.stops.add(entry);
    else {
      this.open.set(entry.interactionId, entry);
      const note = JSON.stringify({ interactionId: entry.interactionId, cardId: entry.currentCardId() });
      this.note(`code:${interactionCode(entry.interactionId)}`, note);
    }
  }

  /** Removes an entry without a decision (its run ended): later clicks on it are stale. */
  remove(entry: InteractionEntry): void {
    if (entry.interactionId === 'stop') this.stops.delete(entry);
    else if (this.open.get(entry.interactionId) === entry) this.open.delete(entry.interactionId);
  }

  /** Marks an open question decided without a click (timeout). */
  expire(entry: InteractionEntry): void {
    if (this.open.get(entry.interactionId) !== entry) return;
    this.open.delete(entry.interactionId);
    this.markDecided(entry.interactionId, { by: undefined, locale: entry.locale() });
  }

  /**
   * Handles one verified click: here when this process knows the control (or there is no shared
   * store), else through the owner of the card (a promise). Never throws or rejects.
   */
  handle = (click: ControlClick): ClickReply | Promise<ClickReply> => {
    const earlier = this.replies.get(click.deliveryId);
    if (earlier) return { ...earlier, view: undefined, repeated: true };
    if (!this.routing || this.knows(click)) return this.decide(click);
    return this.handleElsewhere(click, this.routing);
  };

  /** A click this process must answer itself (it holds the card, or the click was handed to it). */
  private handleHere(click: ControlClick): ClickReply {
    const earlier = this.replies.get(click.deliveryId);
    if (earlier) return { ...earlier, view: undefined, repeated: true };
    return this.decide(click);
  }

  /** True when this process has (or had) the control clicked. */
  private knows(click: ControlClick): boolean {
    if (click.interactionId !== 'stop') return this.open.has(click.interactionId) || this.decided.has(click.interactionId);
    return this.decided.has(`stop:${click.cardId}`) || [...this.stops].some((entry) => entry.isCurrentCard(click.cardId));
  }

  /** Asks the relay who decided, or else the card's owner, and answers the click. */
  private async handleElsewhere(click: ControlClick, routing: ClickRouting): Promise<ClickReply> {
    let locale: Locale = 'en';
    try {
      const key = click.interactionId === 'stop' ? `stop:${click.cardId}` : click.interactionId;
      const note = await routing.relay.getNote(`decided:${key}`);
      if (note) {
        const done = JSON.parse(note) as { by?: string; locale: Locale };
        return this.memo(click, this.say('already-decided', INTERACTION_TEXTS[done.locale].alreadyDecided(done.by), 'info'));
      }
      const card = await routing.ownerOf(click.cardId);
      if (!card?.open || card.owner === routing.owner) return this.handleHere(click);
      locale = card.locale;
      const forwarded = await routing.relay.forward(card.owner, click, routing.forwardTimeoutMs);
      if (forwarded) return this.memo(click, { ...forwarded, repeated: false });
      this.logger.warn(`interaction ${click.interactionId}: the process holding card ${click.cardId} did not answer the click`);
    } catch (error) {
      this.logger.error(`interaction ${click.interactionId}: click could not reach the card's process: ${error instanceof Error ? error.message : String(error)}`);
    }
    // Not remembered: the same callback, retried once the card was taken over, is tried again.
    return this.say('unavailable', INTERACTION_TEXTS[locale].unavailable, 'warning');
  }

  private memo(click: ControlClick, reply: ClickReply): ClickReply {
    remember(this.replies, click.deliveryId, reply);
    return reply;
  }

  /** Applies the rules to a click here and remembers the reply for its retries. */
  private decide(click: ControlClick): ClickReply {
    let reply: ClickReply;
    try {
      reply = this.route(click);
    } catch (error) {
      this.logger.error(`interaction ${click.interactionId}: click failed: ${error instanceof Error ? error.message : String(error)}`);
      reply = { outcome: 'invalid', message: INTERACTION_TEXTS.en.invalid, tone: 'error', repeated: false };
    }
    remember(this.replies, click.deliveryId, reply);
    return reply;
  }

  /**
   * Handles a text reply typed in the chat instead of a click, for channels whose callbacks are not
   * configured (the card shows what to type): `/<option id> <code>` (e.g. `/approve 3F2A`) or
   * `/answer <code> <text>`, where `<code>` is the question's `PendingInteraction.code`. The same
   * rules apply as for clicks; `deliveryId` (the chat message id) makes a re-delivered message
   * count once. Resolves undefined when the text is not such a reply, or names no open question
   * (of any process of the app, with a shared store).
   */
  async reply(text: string, user: InteractionUser, deliveryId: string): Promise<ClickReply | undefined> {
    const match = /^\s*\/([\w-]+)\s+([0-9a-f]{4})\b\s*([\s\S]*)$/i.exec(text);
    if (!match) return undefined;
    const [, command, code, rest] = match as unknown as [string, string, string, string];
    const named = (id: string) => interactionCode(id) === code.toUpperCase();
    const entry = [...this.open.values()].find((e) => named(e.interactionId));
    // A question decided already (or a re-delivered message) still gets its answer.
    const decidedId = entry ? undefined : [...this.decided.keys()].find((id) => !id.startsWith('stop:') && named(id));
    const answer = command.toLowerCase() === 'answer';
    const click = (interactionId: string, cardId: string): ControlClick => ({ cardId, interactionId, optionId: answer ? undefined : command, text: answer ? rest : undefined, user, deliveryId });
    if (entry || decidedId || this.replies.has(deliveryId)) return this.handle(click(entry?.interactionId ?? decidedId ?? '', entry?.currentCardId() ?? ''));
    // A question of another process of the app: its code was noted when it was asked.
    const note = await this.routing?.relay.getNote(`code:${code.toUpperCase()}`).catch(() => undefined);
    if (!note) return undefined;
    const asked = JSON.parse(note) as { interactionId: string; cardId: string };
    return this.handle(click(asked.interactionId, asked.cardId));
  }

  /**
   * Starts the plugin's callback listener once (later calls share the first start). Resolves
   * false, with one error logged, when the plugin has no interaction capability or fails to start.
   */
  listen(plugin: InteractivePlugin): Promise<boolean> {
    let started = this.listening.get(plugin);
    if (!started) {
      const interaction = plugin.interaction;
      started = !interaction
        ? Promise.resolve(false)
        : interaction.start(this.handle).then(
            () => {
              for (const warning of interaction.warnings ?? []) this.logger.warn(`channel ${plugin.id}: ${warning}`);
              return true;
            },
            (error: unknown) => {
              this.logger.error(`channel ${plugin.id}: card callbacks could not start: ${error instanceof Error ? error.message : String(error)}`);
              return false;
            },
          );
      this.listening.set(plugin, started);
    }
    return started;
  }

  /** Stops every listener started. */
  async close(): Promise<void> {
    const plugins = [...this.listening.keys()];
    this.listening.clear();
    await this.routing?.relay.unlisten(this.routing.owner).catch(() => undefined);
    await Promise.all(plugins.map((plugin) => plugin.interaction?.stop().catch(() => undefined)));
  }

  private route(click: ControlClick): ClickReply {
    const stop = click.interactionId === 'stop';
    const decidedKey = stop ? `stop:${click.cardId}` : click.interactionId;
    const entry = stop ? [...this.stops].find((e) => e.isCurrentCard(click.cardId)) : this.open.get(click.interactionId);
    const done = this.decided.get(decidedKey);
    if (done) return this.say('already-decided', INTERACTION_TEXTS[done.locale].alreadyDecided(done.by), 'info');
    if (!entry?.isCurrentCard(click.cardId)) return this.say('stale', this.staleText(entry), 'info');
    const texts = INTERACTION_TEXTS[entry.locale()];
    if (entry.allowed && !entry.allowed.has(click.user.id)) return this.say('not-allowed', texts.notAllowed, 'warning');
    const accepted = entry.accept(click);
    if (!accepted) return this.say('invalid', texts.invalid, 'error');
    this.markDecided(decidedKey, { by: click.user.name || click.user.id, locale: entry.locale() });
    this.remove(entry);
    return stop
      ? { outcome: 'stopped', message: texts.stopped, tone: 'success', view: accepted.view, repeated: false }
      : { outcome: 'decided', message: texts.decided(accepted.label), tone: 'success', view: accepted.view, repeated: false };
  }

  /** Remembers a decision here and, with a shared store, for every process. */
  private markDecided(key: string, done: { by: string | undefined; locale: Locale }): void {
    remember(this.decided, key, done);
    this.note(`decided:${key}`, JSON.stringify(done));
  }

  /** Best effort: a note lost while the store is away only costs a less precise answer later. */
  private note(key: string, value: string): void {
    this.routing?.relay.putNote(key, value, NOTE_TTL_MS).catch((error: unknown) => {
      this.logger.debug(`click note ${key} not kept: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private staleText(entry: InteractionEntry | undefined): string {
    return INTERACTION_TEXTS[entry?.locale() ?? 'zh-CN'].stale;
  }

  private say(outcome: ClickReply['outcome'], message: string, tone: ClickReply['tone']): ClickReply {
    return { outcome, message, tone, repeated: false };
  }
}
