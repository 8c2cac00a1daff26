import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type { CallHistory } from '../common/history.js';
import { DiscordErrors, type DiscordError } from './codes.js';
import type { DiscordLimits } from './limits.js';
import type { DiscordMessageStore } from './messages.js';

/** The app's Interactions Endpoint URL. */
export interface DiscordInteractionsConfig {
  readonly url: string;
}

/** A press on a message's button, as a user would make it. */
export interface DiscordClick {
  readonly messageId: string;
  /** The button's label or `custom_id`. */
  readonly button: string;
  readonly userId: string;
  readonly userName?: string;
  /** Sign with another key (a forged request). */
  readonly forgeSignature?: boolean;
}

/**
 * What came of a press: the HTTP status and JSON the endpoint answered, and whether it answered
 * within the 3 s. `error`: `endpoint-not-set`, `no-such-button`, `no-answer` (network error or
 * timeout).
 */
export interface DiscordClickResult {
  readonly interactionId?: string;
  readonly status?: number;
  readonly response?: Record<string, unknown>;
  /** True when the answer came after `limits.interactionAnswerMs` (Discord shows "interaction failed"). */
  readonly late?: boolean;
  readonly error?: 'endpoint-not-set' | 'no-such-button' | 'no-answer';
}

/** Route name of delivered interactions in the call history. */
export const DISCORD_INTERACTION_ROUTE = 'interactions.deliver';

type Json = Record<string, unknown>;
interface OpenInteraction {
  readonly at: number;
  readonly messageId: string;
  acknowledged: boolean;
}

/** Raw 32-byte Ed25519 public key of a key object, as hex (the form the Developer Portal shows). */
function rawPublicKeyHex(key: KeyObject): string {
  const der = key.export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - 32).toString('hex');
}

/**
 * Interactions of the emulator: a press becomes a MESSAGE_COMPONENT interaction (type 3) POSTed to
 * the endpoint, signed with Ed25519 over `timestamp + body` in `X-Signature-Ed25519` and
 * `X-Signature-Timestamp` (https://discord.com/developers/docs/interactions/overview#setting-up-an-endpoint-validating-security-request-headers).
 * The endpoint must answer within 3 s; type 7 UPDATE_MESSAGE applies its data to the message,
 * type 6 DEFERRED_UPDATE_MESSAGE acknowledges. A second initial response answers 40060, one after
 * the token expired 10062 (https://discord.com/developers/docs/interactions/receiving-and-responding).
 */
export class DiscordInteractions {
  private config: DiscordInteractionsConfig | undefined;
  private readonly keys = generateKeyPairSync('ed25519');
  private readonly open = new Map<string, OpenInteraction>();
  /** The app's public key (hex), as the Developer Portal shows it. */
  readonly publicKey = rawPublicKeyHex(this.keys.publicKey);

  constructor(
    private readonly store: DiscordMessageStore,
    private readonly history: CallHistory,
    private readonly clock: () => number,
    private readonly limits: DiscordLimits,
    private readonly applicationId: string,
    private readonly notify: (messageId: string) => void,
  ) {}

  configure(config: DiscordInteractionsConfig | undefined): void {
    this.config = config;
  }

  /** `POST /interactions/{id}/{token}/callback`: an initial response sent as its own request. */
  callback(id: string, token: string, body: Json): DiscordError | undefined {
    const open = this.open.get(`${id}/${token}`);
    if (!open || this.clock() - open.at > this.limits.interactionAnswerMs) return DiscordErrors.unknownInteraction();
    if (open.acknowledged) return DiscordErrors.alreadyAcknowledged();
    open.acknowledged = true;
    this.apply(open.messageId, body);
    return undefined;
  }

  async click(click: DiscordClick): Promise<DiscordClickResult> {
    const message = this.store.require(click.messageId);
    const button = (message.components as Json[]).flatMap((row) => (Array.isArray(row.components) ? (row.components as Json[]) : [])).find((b) => b.label === click.button || b.custom_id === click.button);
    if (!button || typeof button.custom_id !== 'string') return { error: 'no-such-button' };
    if (!this.config) return { error: 'endpoint-not-set' };
    const id = this.store.newId();
    const token = randomBytes(24).toString('base64url');
    const payload = {
      id,
      application_id: this.applicationId,
      type: 3,
      token,
      version: 1,
      channel_id: message.channelId,
      channel: { id: message.channelId, type: 0 },
      member: { user: { id: click.userId, username: click.userName ?? `user${click.userId}` }, permissions: '0' },
      message: { id: message.id, channel_id: message.channelId, content: message.content, embeds: message.embeds, components: message.components },
      data: { custom_id: button.custom_id, component_type: 2 },
      locale: 'en-US',
    };
    const body = JSON.stringify(payload);
    const timestamp = String(Math.floor(this.clock() / 1000));
    const key = click.forgeSignature ? generateKeyPairSync('ed25519').privateKey : this.keys.privateKey;
    const signature = sign(null, Buffer.from(timestamp + body), key).toString('hex');
    const open: OpenInteraction = { at: this.clock(), messageId: message.id, acknowledged: false };
    this.open.set(`${id}/${token}`, open);
    const started = Date.now();
    try {
      const response = await fetch(this.config.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      const late = Date.now() - started > this.limits.interactionAnswerMs;
      let answer: Json | undefined;
      try {
        answer = text ? (JSON.parse(text) as Json) : undefined;
      } catch {
        answer = undefined;
      }
      this.history.record({ route: DISCORD_INTERACTION_ROUTE, key: message.id, outcome: response.ok && !late ? 'accepted' : 'rejected', status: response.status, code: 0, msg: `interaction ${id}`, request: payload, card: answer });
      if (response.ok && !late && answer && !open.acknowledged) {
        open.acknowledged = true;
        this.apply(message.id, answer);
      }
      return { interactionId: id, status: response.status, ...(answer ? { response: answer } : {}), late };
    } catch {
      this.history.record({ route: DISCORD_INTERACTION_ROUTE, key: message.id, outcome: 'rejected', status: 0, code: 0, msg: `interaction ${id}` });
      return { interactionId: id, error: 'no-answer' };
    }
  }

  /** Type 7 UPDATE_MESSAGE replaces what its data gives; other types change nothing on the message. */
  private apply(messageId: string, response: Json): void {
    if (response.type !== 7) return;
    const message = this.store.get(messageId);
    const data = (response.data ?? {}) as Json;
    if (message?.state !== 'live') return;
    if (typeof data.content === 'string') message.content = data.content;
    if (Array.isArray(data.embeds)) message.embeds = data.embeds;
    if (Array.isArray(data.components)) message.components = data.components;
    message.updatedAt = this.clock();
    message.edits += 1;
    this.notify(messageId);
  }
}
