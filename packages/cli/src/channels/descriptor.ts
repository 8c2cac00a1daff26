import type { ChannelPlugin, Locale } from '@progresscard/core';
import type { EnvVariable } from '@progresscard/core/plugin';

/**
 * What the CLI knows about one channel, as data. Every channel-specific fact the CLI needs lives in
 * one descriptor file next to this one (`feishu.ts`, `dingtalk.ts`), listed in `index.ts`; the
 * commands, the preview and the `--json` output only read descriptors. Adding a channel to the CLI
 * is one descriptor file plus one line in the list.
 */

/** A channel plugin of any payload and message types: the CLI hands plugins to the core without looking inside. */
// biome-ignore lint/suspicious/noExplicitAny: each plugin's payload and message types are its own; the core's contract erases them the same way
export type AnyChannelPlugin = ChannelPlugin<any, any>;

/** Environment variables as the CLI reads them. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Timing and language every channel of a replay (or a `doctor` / `smoke` run) gets. */
export interface ReplayChannelSettings {
  /** Wall-ms tick of running tools (see `replayTickMs`); default: the channel's own. */
  readonly tickMs?: number;
  /** Forces the card language; default: the run's. */
  readonly locale?: Locale;
  /** IANA zone of the footer's clock time (default the process's); `smoke` fixes it for stable payloads. */
  readonly timeZone?: string;
  /**
   * Read for the feature switch variables (`FEISHU_CARD_*`, …). Emulated plugins read none unless
   * given; real plugins read the environment they are built from.
   */
  readonly switchEnv?: Env;
}

/** What every platform emulator offers the CLI once it listens on loopback. */
export interface RunningEmulator {
  /** E.g. `http://127.0.0.1:4871`. */
  readonly baseUrl: string;
  /** Subscribes to card changes; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
  /** Stops the server (idempotent). */
  close(): Promise<void>;
}

/** What a channel's scope check found: `warn` when a scope is missing and the channel falls back. */
export interface ScopeCheckResult {
  readonly status: 'pass' | 'warn';
  /** One line: the scope, and what the channel does with or without it. */
  readonly summary: string;
  /** How to grant the scope, or how to choose the mode that does not need it. */
  readonly details: readonly string[];
}

/** One platform API call as an emulator recorded it (the fields both emulators share). */
export interface EmulatorCall {
  readonly seq: number;
  /** Epoch ms when it was answered. */
  readonly at: number;
  readonly route: string;
  readonly outcome: 'accepted' | 'rejected';
  readonly status: number;
  /** Platform error code (Feishu: a number, 0 on success; DingTalk: a string, absent on success). */
  readonly code?: number | string;
  readonly msg?: string;
  /** Message / card id the call was about. */
  readonly key?: string;
}

/** One card an emulator holds, ready for the preview page. */
export interface EmulatorCard {
  /** Platform message / card id. */
  readonly id: string;
  /** Changes whenever the rendered card would change (the preview caches HTML by it). */
  readonly revision: string;
  /** Platform state shown on the card holder (Feishu: header template colour; DingTalk: AI-card state). */
  readonly state: string;
  /** Epoch ms. */
  readonly createdAt: number;
  /** Epoch ms. */
  readonly updatedAt: number;
  /** Accepted changes so far. */
  readonly version: number;
  /** The card as safe HTML. */
  render(): string;
}

/** One `export NAME=value` line the `emulator` command prints. */
export interface EnvLine {
  readonly name: string;
  readonly value: string;
  /** Printed as a shell comment after the line. */
  readonly note?: string;
}

/** An optional `--real` variable and what it does. */
export interface OptionalEnvVar {
  readonly name: string;
  /** For `--help`, e.g. `lark or a URL`. */
  readonly hint: string;
}

/**
 * Everything channel-specific the CLI needs about one channel.
 * @typeParam Id - the channel id, equal to its plugin's `id` (`--channel <id>`).
 * @typeParam Emulator - the platform emulator this channel replays to without `--real`.
 */
export interface ChannelDescriptor<Id extends string = string, Emulator extends RunningEmulator = RunningEmulator> {
  readonly id: Id;
  /** Human name, e.g. `Feishu / Lark` (preview panel, `emulator` command). */
  readonly label: string;
  /** The channel on its loopback emulator. */
  readonly emulated: {
    /** Starts the emulator on 127.0.0.1 at `port` (0 = any free port) with its default app. */
    start(port: number): Promise<Emulator>;
    /** The real plugin pointed at `emulator`. */
    plugin(emulator: Emulator, settings: ReplayChannelSettings): AnyChannelPlugin;
    /** The `--real` variables that send to `emulator` (what `progresscard emulator` prints). */
    env(emulator: Emulator): readonly EnvLine[];
    /** How a program points the plugin at `emulator`, e.g. `feishu({ …, domain: 'http://…' })`. */
    pluginHint(emulator: Emulator): string;
  };
  /** The channel on the real platform (`--real`), configured from the environment. */
  readonly real: {
    /** Variables that must be set and non-empty. */
    readonly requiredEnv: readonly string[];
    /**
     * The plugin's variables as data (`defineChannel`'s `env`): with them, `doctor` also checks apps
     * 2, 3… configured with the suffix `_<n>` (`FEISHU_APP_ID_2`; see `appsFromEnv`).
     */
    // biome-ignore lint/suspicious/noExplicitAny: each plugin has its own config type; only names and flags are read.
    readonly variables?: readonly EnvVariable<any>[];
    readonly optionalEnv: readonly OptionalEnvVar[];
    /**
     * A valid value for each required variable (the emulator's app and chat). `doctor` puts them in
     * place of a missing or bad required value, so that every other value is checked on its own and
     * one run lists every problem; they are never sent anywhere. Absent: `doctor` checks the other
     * values beside the user's required ones (a bad one can hide the rest).
     */
    readonly standIns?: Readonly<Record<string, string>>;
    /**
     * The plugin for the real platform; call only when no required variable is missing.
     * @throws CliUsageError naming the bad config field.
     */
    plugin(env: Env, settings: ReplayChannelSettings): AnyChannelPlugin;
  };
  /** What `progresscard doctor` checks beyond the plugin itself. */
  readonly doctor: {
    /** The platform's metered calls per month, when it has such a quota (for the budget figures). */
    readonly monthlyQuota?: number;
    /**
     * Asks the platform's token endpoint with the credentials in `env` (one call). Absent (a
     * plugin module without one): `doctor` skips the check and the delivery check proves them.
     * @throws Error with the platform's answer (code and message, never the secret).
     */
    checkCredentials?(env: Env): Promise<void>;
    /**
     * Asks the platform whether the app holds the permission scopes the plugin's mode uses beyond
     * sending cards (e.g. Feishu's `cardkit:card:write` for CardKit cards), and says what the channel
     * falls back to without them. Absent: `doctor` has no scope to check for this channel.
     * @throws Error when the platform could not be asked (the check then warns: cards still go out).
     */
    checkScopes?(env: Env, plugin: AnyChannelPlugin): Promise<ScopeCheckResult>;
    /** What the `callbacks` check says about card callbacks (buttons) on this platform. */
    readonly callbacks: {
      /** How to turn card callbacks on (config and the platform console), shown when they are off or refused. */
      readonly setup: readonly string[];
      /** The summary when the listener started. */
      readonly listening: string;
      /** What a started listener does not prove (e.g. a console setting no API reports). */
      readonly caveats: readonly string[];
    };
    /** What is wrong with a rendered payload's shape (empty when it is a valid card of this platform). */
    payloadProblems(payload: unknown, plugin: AnyChannelPlugin): string[];
    /** Where a rendered payload breaks the platform's size and element limits (empty when within). */
    limitProblems(payload: unknown, plugin: AnyChannelPlugin): string[];
    /** Every text a payload shows, for the smoke checks (markers found, nothing lost, nothing twice). */
    texts(payload: unknown): string;
  };
  /** How the preview page and `--json` read the emulator's accepted state. */
  readonly preview: {
    /** Every card the emulator holds, oldest first. */
    cards(emulator: Emulator): readonly EmulatorCard[];
    /**
     * For a platform that pulls the card (WeCom polls the bot): resolves once the emulator has read
     * every answer the plugin already gave, so its cards show the final. Absent: a delivered call is
     * already applied.
     */
    settled?(emulator: Emulator): Promise<void>;
    /** Every call the emulator answered, in arrival order. */
    calls(emulator: Emulator): readonly EmulatorCall[];
    /** Token routes, which the preview leaves out of the call list and the counters. */
    isTokenRoute(route: string): boolean;
    /** True when the platform answered "too many requests" (the source of each code is in the descriptor). */
    isRateLimited(call: EmulatorCall): boolean;
    /** The final payload of a card as the emulator holds it (`--json`), or undefined when it holds none. */
    finalPayload(emulator: Emulator, messageId: string): unknown;
    /**
     * Clicks button `button` (its label) of card `cardId` as user `user`, through the emulator's
     * callback path (`input`: text typed into the card's input). Absent for channels without controls.
     */
    click?(emulator: Emulator, click: PreviewClick): Promise<PreviewClickResult>;
  };
}

/** A click the preview page asks for. */
export interface PreviewClick {
  readonly cardId: string;
  readonly button: string;
  readonly user: string;
  readonly input?: string;
}

/** What became of a preview click: whether the app answered, and what it told the user. */
export interface PreviewClickResult {
  readonly ok: boolean;
  /** The toast / notice text, or why the click went nowhere (e.g. `callbacks-not-configured`). */
  readonly message: string;
}

/** A descriptor of any channel (the list in `index.ts` holds several emulator types). */
// biome-ignore lint/suspicious/noExplicitAny: the emulator type is erased once a channel starts (see `startEmulators`)
export type AnyChannelDescriptor = ChannelDescriptor<string, any>;
