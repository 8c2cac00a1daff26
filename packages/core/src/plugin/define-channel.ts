import type { FooterField, FooterStyle } from '../card/format/footer.js';
import type { Locale } from '../card/view.js';
import type { StandardSchemaV1 } from '../shared/standard-schema.js';
import { streamLifetimeProblem, type StreamingMode } from './stream-contract.js';
import type { BudgetKey, BudgetedCall, CardRenderer, CardTransport, ChannelInteraction, ChannelPlugin, ChannelSettings, FeatureSwitches } from './contract.js';
import { ChannelConfigError, parseChannelConfig, parseTimingOverrides } from './kit/config.js';
import { configFromEnv, withEnvNames, type EnvSource, type EnvVariable } from './kit/env.js';
import { hideSecrets } from './kit/secrets.js';
import { resolveFeatureSwitches } from './kit/switches.js';

/**
 * `defineChannel`: the steps every channel plugin's factory takes, once — validate the config
 * (errors name the field, never a secret's value), resolve the feature switches from config and
 * env, hand the renderer its settings (language, footer, folding), read the timing overrides, hide
 * the secrets from `plugin.config`, `inspect` and JSON, and build `fromEnv` from named variables.
 * The plugin writes only what is its own: `create` builds the renderer, the transport and the
 * interaction from the validated config.
 */

/** A plugin's config error class (a {@link ChannelConfigError} subclass such as `SlackConfigError`). */
export type ChannelConfigErrorClass = new (channelId: string, field: string, shown: string, reason: string) => ChannelConfigError;

/**
 * What a renderer takes from the channel's switches, resolved: give these to your renderer rather
 * than reading the switches yourself.
 */
export interface RendererSettings {
  /** The channel's language; absent = the run's (`CardView.locale`, which then already follows it). */
  readonly locale?: Locale;
  /** Footer style (`compact` default, `debug`): pass it to `formatFooter`. */
  readonly footerStyle: FooterStyle;
  /** Footer fields shown, in footer order (absent = all the style shows): pass them to `formatFooter`. */
  readonly footerFields?: readonly FooterField[];
  /** Tool lines shown before older ones fold away (absent = the renderer's own default). */
  readonly toolFoldAfter?: number;
}

/** What {@link ChannelDefinition.create} is given. */
export interface ChannelContext<Config, Options> {
  /** The channel id. */
  readonly id: string;
  /** The validated config: the schema's output, defaults applied, secrets in clear (keep them in the transport). */
  readonly config: Config;
  /** The feature switches, resolved (config ← `<ID>_CARD_*` env). */
  readonly switches: FeatureSwitches;
  /** The renderer's settings from the switches. */
  readonly rendering: RendererSettings;
  /** The environment the switches were read from. */
  readonly env: EnvSource;
  /** The factory's second argument, without `env` (test seams such as a ready SDK client). */
  readonly options: Options;
}

/** What {@link ChannelDefinition.create} builds: the plugin's own parts. */
export interface ChannelParts<Payload, Target> {
  readonly renderer: CardRenderer<Payload>;
  readonly transport: CardTransport<Payload, Target>;
  /** Card callbacks, when the config turns them on. */
  readonly interaction?: ChannelInteraction;
  /** Native streaming, when the platform (and the config) has it (see `StreamingMode`). */
  readonly streaming?: StreamingMode<Target>;
}

/** The budget keys of one call (see {@link ChannelPlugin.budgetKeys}). */
export type BudgetKeysOf<Target> = (call: BudgetedCall<Target>, settings: ChannelSettings) => readonly BudgetKey[];

/**
 * The description of a channel given to {@link defineChannel}.
 * @typeParam Schema - the config's Standard Schema (zod 4 with the kit's shapes spread in, or any other).
 * @typeParam Options - the factory's non-config options besides `env`.
 */
export interface ChannelDefinition<Id extends string, Schema extends StandardSchemaV1, Payload, Target, Options extends object> {
  /** Lowercase letters, digits and dashes; also the env prefix (`my-chat` → `MY_CHAT_CARD_TOOL_TICK_MS`). */
  readonly id: Id;
  /**
   * The config schema. Let the timing and switch fields through (spread `TIMING_OVERRIDES_SHAPE` and
   * `FEATURE_SWITCHES_SHAPE` into a zod 4 object from this package's `z`), or they are not applied.
   */
  readonly configSchema: Schema;
  /** The environment variables `fromEnv` reads, as data (name, field, required, hint, secret). */
  readonly env?: readonly EnvVariable<StandardSchemaV1.InferInput<Schema>>[];
  /**
   * Config paths holding secrets: a field (`botToken`) or a dotted path (`callbacks.apiSecret`).
   * Their values show as `<hidden>` in `plugin.config`, `inspect(plugin)`, `JSON.stringify(plugin)`
   * and config errors (an error inside a nested secret's object hides the whole object's value).
   */
  readonly secrets?: readonly string[];
  /** The platform's limits (durations in ms), citing their sources; or a function of the config (per mode). */
  readonly defaults: ChannelSettings | ((config: StandardSchemaV1.InferOutput<Schema>) => ChannelSettings);
  /**
   * The budgets a call draws from, as the platform documents its limits, built from the config
   * (e.g. keyed by app id and chat); see {@link ChannelPlugin.budgetKeys}. Absent: one budget,
   * the channel id with `defaults.budget`.
   */
  readonly budget?: (config: StandardSchemaV1.InferOutput<Schema>) => BudgetKeysOf<Target>;
  /** What to check when the credentials are refused, e.g. `the bot token (TELEGRAM_BOT_TOKEN)` ({@link ChannelPlugin.credentials}). */
  readonly credentials?: string;
  /**
   * The configured app's stable, non-secret id (e.g. the Feishu `app_id`), so an app pool resumes a
   * stored card on its message only through the app that sent it ({@link ChannelPlugin.appIdentity}).
   * Never return a secret: it is stored with every card.
   */
  readonly appIdentity?: (config: StandardSchemaV1.InferOutput<Schema>) => string | undefined;
  /** Switch values this channel starts from instead of the kit's defaults (e.g. a known `monthlyQuota`). */
  readonly switchDefaults?: Partial<FeatureSwitches>;
  /** The error class config errors are thrown as (default {@link ChannelConfigError}). */
  readonly configError?: ChannelConfigErrorClass;
  /** Builds the renderer, transport and interaction from the validated config. */
  create(context: ChannelContext<StandardSchemaV1.InferOutput<Schema>, Options>): ChannelParts<Payload, Target>;
}

/** The factory options every defined channel takes. */
export interface DefinedChannelOptions {
  /** Read for the feature switch variables `<ID>_CARD_*` and, in `fromEnv`, the config variables (default `process.env`). */
  readonly env?: EnvSource;
}

/** A plugin built by a {@link defineChannel} factory: a {@link ChannelPlugin} with its config (secrets `<hidden>`). */
export type DefinedChannel<Id extends string, Payload, Target, Config> = ChannelPlugin<Payload, Target> & {
  readonly id: Id;
  /** The validated config, every secret path replaced by `<hidden>`. */
  readonly config: Readonly<Config>;
  readonly switches: FeatureSwitches;
};

/** What {@link defineChannel} returns: the plugin factory, `fromEnv`, and the definition's data for tools (the CLI). */
export interface ChannelFactory<Id extends string, Schema extends StandardSchemaV1, Payload, Target, Options extends object> {
  /**
   * Builds the plugin.
   * @throws ChannelConfigError (the definition's `configError` class) naming the channel, field and value (never a secret's); also for a streaming lifetime the core cannot keep (`rollOverMarginMs` over half the stream's shorter limit, or a `perCardIntervalMs` that leaves no call after a stream's start before its roll-over margin).
   */
  (config: StandardSchemaV1.InferInput<Schema>, options?: Options & DefinedChannelOptions): DefinedChannel<Id, Payload, Target, StandardSchemaV1.InferOutput<Schema>>;
  /**
   * Builds the plugin from the environment ({@link ChannelDefinition.env}); `overrides` win over it,
   * and a field given there needs no variable.
   * @throws MissingEnvError naming every required variable that is unset or empty.
   * @throws ChannelConfigError naming the bad field, the variable it came from and its value (never a secret's).
   */
  fromEnv(overrides?: Partial<StandardSchemaV1.InferInput<Schema>>, options?: Options & DefinedChannelOptions): DefinedChannel<Id, Payload, Target, StandardSchemaV1.InferOutput<Schema>>;
  /**
   * Validates a config and applies its defaults, without building anything.
   * @throws ChannelConfigError as the factory does.
   */
  parseConfig(input: unknown): StandardSchemaV1.InferOutput<Schema>;
  readonly id: Id;
  readonly configSchema: Schema;
  /** The variables `fromEnv` reads. */
  readonly env: readonly EnvVariable<StandardSchemaV1.InferInput<Schema>>[];
  /** The secret config paths. */
  readonly secrets: readonly string[];
  /** The defaults when they do not depend on the config (else undefined: see a built plugin's `defaults`). */
  readonly defaults: ChannelSettings | undefined;
}

const CHANNEL_ID = /^[a-z][a-z0-9-]*$/;
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * Defines a channel plugin: returns its factory (`telegram(config, options)`), with `fromEnv`.
 *
 * ```ts
 * export const telegram = defineChannel({
 *   id: 'telegram',
 *   configSchema: z.object({ botToken: z.string(), chatId: z.string(), ...TIMING_OVERRIDES_SHAPE, ...FEATURE_SWITCHES_SHAPE }).strict(),
 *   env: [{ name: 'TELEGRAM_BOT_TOKEN', field: 'botToken', required: true, secret: true, hint: 'the bot token' }, …],
 *   secrets: ['botToken'],
 *   defaults: { tickMs: 3000, budget: [{ limit: 20, intervalMs: 60_000 }], perCardIntervalMs: 1000, debounceMs: 2500 },
 *   credentials: 'the bot token (TELEGRAM_BOT_TOKEN)',
 *   create: ({ config, rendering }) => ({ renderer: createRenderer(rendering), transport: new TelegramTransport(config) }),
 * });
 * ```
 * @throws TypeError when `id` is not lowercase letters, digits and dashes starting with a letter.
 */
export function defineChannel<Id extends string, Schema extends StandardSchemaV1, Payload, Target, Options extends object = Record<never, never>>(
  definition: ChannelDefinition<Id, Schema, Payload, Target, Options>,
): ChannelFactory<Id, Schema, Payload, Target, Options> {
  type Input = StandardSchemaV1.InferInput<Schema>;
  type Config = StandardSchemaV1.InferOutput<Schema>;
  const { id, configSchema } = definition;
  if (!CHANNEL_ID.test(id)) throw new TypeError(`defineChannel id = ${JSON.stringify(id)}: must be lowercase letters, digits and dashes, starting with a letter`);
  const secrets = definition.secrets ?? [];
  const variables = definition.env ?? [];
  const error = definition.configError ?? ChannelConfigError;
  const makeError = (channelId: string, field: string, shown: string, reason: string) => new error(channelId, field, shown, reason);
  const secretFields = new Set(secrets.map((path) => path.split('.')[0]!));

  const parseConfig = (input: unknown): Config => parseChannelConfig(id, configSchema, input, { secretFields, error: makeError });

  function build(input: Input, options: Options & DefinedChannelOptions = {} as Options & DefinedChannelOptions): DefinedChannel<Id, Payload, Target, Config> {
    const { env = process.env, ...rest } = options;
    const config = parseConfig(input);
    const switches: FeatureSwitches = { ...definition.switchDefaults, ...resolveFeatureSwitches(id, config, { env, error: makeError }) };
    const rendering: RendererSettings = {
      footerStyle: switches.footerStyle,
      ...(switches.locale === undefined ? {} : { locale: switches.locale }),
      ...(switches.footerFields === undefined ? {} : { footerFields: switches.footerFields }),
      ...(switches.toolFoldAfter === undefined ? {} : { toolFoldAfter: switches.toolFoldAfter }),
    };
    const parts = definition.create({ id, config, switches, rendering, env, options: rest as Options });
    const defaults = typeof definition.defaults === 'function' ? definition.defaults(config) : definition.defaults;
    const overrides = parseTimingOverrides(id, config);
    const lifetimeProblem = parts.streaming && streamLifetimeProblem(parts.streaming.lifetime, overrides.perCardIntervalMs ?? defaults.perCardIntervalMs);
    if (lifetimeProblem) {
      const field = lifetimeProblem.field === 'perCardIntervalMs' ? 'perCardIntervalMs' : `streaming lifetime ${lifetimeProblem.field}`;
      throw makeError(id, field, JSON.stringify(lifetimeProblem.value), lifetimeProblem.reason);
    }
    const visible = Object.freeze(hideSecrets(config, secrets));
    const shown = () => ({ id, config: visible });
    const plugin: DefinedChannel<Id, Payload, Target, Config> = {
      id,
      configSchema,
      defaults,
      overrides,
      switches,
      config: visible,
      ...(definition.credentials === undefined ? {} : { credentials: definition.credentials }),
      ...(definition.budget ? { budgetKeys: definition.budget(config) } : {}),
      ...appIdentityOf(definition.appIdentity?.(config)),
      renderer: parts.renderer,
      transport: parts.transport,
      ...(parts.interaction ? { interaction: parts.interaction } : {}),
      ...(parts.streaming ? { streaming: parts.streaming } : {}),
    };
    // The transport and interaction hold the secrets: logging or serialising the plugin shows its id and hidden config only.
    Object.defineProperty(plugin, 'toJSON', { value: shown, enumerable: false });
    Object.defineProperty(plugin, INSPECT, { value: () => ({ ...shown(), renderer: '[renderer]', transport: '[transport]' }), enumerable: false });
    return plugin;
  }

  function fromEnv(overrides: Partial<Input> = {}, options: Options & DefinedChannelOptions = {} as Options & DefinedChannelOptions) {
    const env = options.env ?? process.env;
    const config = configFromEnv(id, variables, env, overrides);
    return withEnvNames(variables, overrides, () => build(config as Input, { ...options, env }));
  }

  return Object.assign(build, {
    fromEnv,
    parseConfig,
    id,
    configSchema,
    env: variables,
    secrets,
    defaults: typeof definition.defaults === 'function' ? undefined : definition.defaults,
  }) as ChannelFactory<Id, Schema, Payload, Target, Options>;
}

/** The plugin's `appIdentity` field, when the definition names one. */
function appIdentityOf(appIdentity: string | undefined): { appIdentity?: string } {
  return appIdentity === undefined ? {} : { appIdentity };
}
