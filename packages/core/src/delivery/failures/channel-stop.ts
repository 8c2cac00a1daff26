import type { CallFailure, CallFailureKind } from '../../plugin/contract.js';
import type { Logger } from '../../shared/logger.js';

/**
 * Failure kinds that stop a channel (the `stop-channel` action of the failure table), with the one
 * error log that says so and the prefix of each final's error while stopped:
 * - `auth`: the credentials were refused again right after a refresh (a wrong app secret, a revoked bot token):
 *   every later call would be refused the same way;
 * - `quota`: the platform's call quota for a long period is spent.
 */
const CHANNEL_STOP_REASONS: Readonly<Partial<Record<CallFailureKind, { readonly log: (credentials: string) => string; readonly finalError: string }>>> = {
  auth: {
    log: (credentials) =>
      `credentials refused, also right after a credential refresh (check ${credentials}): progressive updates stop for every card of the channel, each final gets one try`,
    finalError: 'credentials refused',
  },
  quota: {
    log: () => 'call quota spent: progressive updates stop for every card of the channel, each final gets one try',
    finalError: 'call quota spent',
  },
};

/**
 * Whether a channel's progressive updates are stopped, and why. Stopped by a failure of a kind in
 * {@link CHANNEL_STOP_REASONS}; lifted by any successful call (credentials rotated, quota renewed).
 */
export class ChannelStop {
  private reason: CallFailureKind | undefined;
  private failure: CallFailure | undefined;
  /** True once a call of the channel succeeded: its credentials worked in this process. */
  private worked = false;
  private liftListener: (() => void) | undefined;

  constructor(
    private readonly channelId: string,
    private readonly logger: Logger,
    /** What to check when the credentials are refused (`ChannelPlugin.credentials`). */
    private readonly credentials = "the channel's credentials",
  ) {}

  /** The kind that stopped the channel, or undefined while it runs. */
  get stoppedBy(): CallFailureKind | undefined {
    return this.reason;
  }

  /**
   * True while credentials that had worked in this process are refused: the channel probes them
   * back (see `CredentialProbes`) instead of giving each final one try. Credentials refused from
   * the start (a wrong secret) stop the channel as other kinds do.
   */
  get probesBack(): boolean {
    return this.reason === 'auth' && this.worked;
  }

  /** The failure that stopped the channel, while stopped. */
  get stoppedWith(): CallFailure | undefined {
    return this.failure;
  }

  /** `listener` is called when a stop is lifted. */
  onLift(listener: () => void): void {
    this.liftListener = listener;
  }

  /** Stops the channel for `failure`; logs one error the first time (not again until lifted). */
  stop(failure: CallFailure, fields: Record<string, unknown>): void {
    if (this.reason !== undefined) return;
    this.reason = failure.kind;
    this.failure = failure;
    const log = this.probesBack
      ? `credentials refused although they worked before, also right after a credential refresh (check ${this.credentials}): every card of the channel waits while the platform is probed with backoff`
      : (CHANNEL_STOP_REASONS[failure.kind]?.log(this.credentials) ?? `${failure.kind} failure: progressive updates stop for every card of the channel`);
    this.logger.error(`${this.channelId}: ${log}`, fields);
  }

  /** A call succeeded: the channel runs again. */
  lift(): void {
    this.worked = true;
    if (this.reason === undefined) return;
    this.reason = undefined;
    this.failure = undefined;
    this.liftListener?.();
  }

  /** The error a final reports when the channel's stop ends it, e.g. `feishu credentials refused: <detail>`. */
  finalError(failure: CallFailure): string {
    const prefix = CHANNEL_STOP_REASONS[failure.kind]?.finalError ?? `${failure.kind} failure`;
    return `${this.channelId} ${prefix}: ${failure.detail}`;
  }
}
