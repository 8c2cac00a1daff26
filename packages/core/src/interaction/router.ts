import type { CardView, Locale } from '../card/view.js';
import type { ChannelPlugin } from '../plugin/contract.js';

/** What the router needs of a plugin: its id and its callbacks. */
export type InteractivePlugin = Pick<ChannelPlugin, 'id' | 'interaction'>;
import type { Logger } from '../shared/logger.js';
import { interactionCode } from '../card/interaction-state.js';
import { INTERACTION_TEXTS } from '../plugin/interaction-texts.js';
import type { InteractionUser } from '../events/contract.js';
import type { ClickReply, ControlClick } from '../plugin/contract.js';

/** Retried deliveries and decided interactions remembered (the oldest are forgotten first). */
const REMEMBERED = 2000;

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
 */
export class InteractionRouter {
  private readonly open = new Map<string, InteractionEntry>();
  private readonly stops = new Set<InteractionEntry>();
  /** Decided interaction (or `stop:<cardId>`) → who decided (undefined: the timeout). */
  private readonly decided = new Map<string, { by: string | undefined; locale: Locale }>();
  private readonly replies = new Map<string, ClickReply>();
  private readonly listening = new Map<InteractivePlugin, Promise<boolean>>();

  constructor(private readonly logger: Logger) {}

  /** Registers an open question (or, with id `stop`, a Stop button). */
  add(entry: InteractionEntry): void {
    if (entry.interactionId === 'stop') this.stops.add(entry);
    else this.open.set(entry.interactionId, entry);
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
    remember(this.decided, entry.interactionId, { by: undefined, locale: entry.locale() });
  }

  /** Handles one verified click. Never throws. */
  handle = (click: ControlClick): ClickReply => {
    const earlier = this.replies.get(click.deliveryId);
    if (earlier) return { ...earlier, view: undefined, repeated: true };
    let reply: ClickReply;
    try {
      reply = this.route(click);
    } catch (error) {
      this.logger.error(`interaction ${click.interactionId}: click failed: ${error instanceof Error ? error.message : String(error)}`);
      reply = { outcome: 'invalid', message: INTERACTION_TEXTS.en.invalid, tone: 'error', repeated: false };
    }
    remember(this.replies, click.deliveryId, reply);
    return reply;
  };

  /**
   * Handles a text reply typed in the chat instead of a click, for channels whose callbacks are not
   * configured (the card shows what to type): `/<option id> <code>` (e.g. `/approve 3F2A`) or
   * `/answer <code> <text>`, where `<code>` is the question's `PendingInteraction.code`. The same
   * rules apply as for clicks; `deliveryId` (the chat message id) makes a re-delivered message
   * count once. Returns undefined when the text is not such a reply, or names no open question.
   */
  reply(text: string, user: InteractionUser, deliveryId: string): ClickReply | undefined {
    const match = /^\s*\/([\w-]+)\s+([0-9a-f]{4})\b\s*([\s\S]*)$/i.exec(text);
    if (!match) return undefined;
    const [, command, code, rest] = match as unknown as [string, string, string, string];
    const named = (id: string) => interactionCode(id) === code.toUpperCase();
    const entry = [...this.open.values()].find((e) => named(e.interactionId));
    // A question decided already (or a re-delivered message) still gets its answer.
    const decidedId = entry ? undefined : [...this.decided.keys()].find((id) => !id.startsWith('stop:') && named(id));
    if (!entry && !decidedId && !this.replies.has(deliveryId)) return undefined;
    const answer = command.toLowerCase() === 'answer';
    const interactionId = entry?.interactionId ?? decidedId ?? '';
    return this.handle({ cardId: entry?.currentCardId() ?? '', interactionId, optionId: answer ? undefined : command, text: answer ? rest : undefined, user, deliveryId });
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
    remember(this.decided, decidedKey, { by: click.user.name || click.user.id, locale: entry.locale() });
    this.remove(entry);
    return stop
      ? { outcome: 'stopped', message: texts.stopped, tone: 'success', view: accepted.view, repeated: false }
      : { outcome: 'decided', message: texts.decided(accepted.label), tone: 'success', view: accepted.view, repeated: false };
  }

  private staleText(entry: InteractionEntry | undefined): string {
    return INTERACTION_TEXTS[entry?.locale() ?? 'zh-CN'].stale;
  }

  private say(outcome: ClickReply['outcome'], message: string, tone: ClickReply['tone']): ClickReply {
    return { outcome, message, tone, repeated: false };
  }
}
