import { escapeHtml } from '../preview/markdown.js';
import type { AnyChannelDescriptor, AnyChannelPlugin, Env, EnvLine, OptionalEnvVar, ReplayChannelSettings, RunningEmulator } from './descriptor.js';
import { CallRecording, inMemoryPlugin, recordedPlugin } from './recording.js';

/**
 * A channel from outside this package, as a plugin module describes it to the CLI: how to build
 * its plugin, and optionally a fake platform for `demo`, `replay` and `smoke` without credentials,
 * a credentials check for `doctor`, and an HTML preview of its payloads. Export one (or a list, or
 * `{ channels: [...] }`) as the default export of a module named by `--plugin <module>` or listed
 * in `progresscard.config.mjs`.
 */
export interface CliChannel<Fake extends FakePlatform = FakePlatform> {
  /** The channel id, equal to the plugin's `id` (`--channel <id>`); lowercase letters, digits, dashes. */
  readonly id: string;
  /** Human name for the preview and `--help` (default: the id). */
  readonly label?: string;
  /**
   * Builds the plugin. `fake` is the running fake platform when the CLI started one (no `--real`);
   * otherwise configure it from `env` (the process environment with `--real`, `doctor`, `smoke --send`).
   * @throws Error naming the bad config field; the CLI shows it as a usage error (exit 2).
   */
  plugin(context: { readonly env: Env; readonly settings: ReplayChannelSettings; readonly fake?: Fake }): AnyChannelPlugin;
  /**
   * A fake of the platform on loopback. Without it, the CLI replays into an in-memory transport
   * that accepts every call, so the preview still shows what the renderer draws.
   */
  readonly fake?: {
    /** Starts it on 127.0.0.1 at `port` (0 = any free port). */
    start(port: number): Promise<Fake>;
  };
  /** Variables `--real` needs (checked before anything is sent). */
  readonly requiredEnv?: readonly string[];
  readonly optionalEnv?: readonly OptionalEnvVar[];
  /**
   * One call that proves the credentials in `env` (for `doctor`); absent = `doctor` says it could not check.
   * @throws Error with the platform's answer (never the secret).
   */
  checkCredentials?(env: Env): Promise<void>;
  /** The platform's metered calls per month, when it has such a quota (`plan`, `doctor`). */
  readonly monthlyQuota?: number;
  /** A payload as safe HTML for the preview page (default: its JSON). */
  previewHtml?(payload: unknown): string;
  /** Where a payload breaks the platform's size and element limits (`doctor`, `smoke`; default none). */
  limitProblems?(payload: unknown): string[];
}

/** A fake platform a plugin module brings for the CLI: where it listens and how to stop it. */
export interface FakePlatform {
  /** E.g. `http://127.0.0.1:4871`. */
  readonly baseUrl: string;
  /** Stops it (idempotent). */
  close(): Promise<void>;
  /** `export NAME=value` lines that point the plugin at it (`progresscard emulator`). */
  env?(): readonly EnvLine[];
}

/** Returns `channel` as given: a typed way to write a {@link CliChannel} in a plugin module. */
export function defineCliChannel<Fake extends FakePlatform>(channel: CliChannel<Fake>): CliChannel<Fake> {
  return channel;
}

/** The running side of an external channel: its fake platform (if any) and what the CLI recorded. */
interface ExternalRun extends RunningEmulator {
  readonly recording: CallRecording;
  readonly fake?: FakePlatform;
}

/** Every string inside a payload, for the smoke checks. */
function stringsOf(payload: unknown): string {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(payload);
  return out.join('\n');
}

/** The CLI descriptor of an external channel: every command reads it like a built-in one's. */
export function externalChannelDescriptor(channel: CliChannel): AnyChannelDescriptor {
  const label = channel.label ?? channel.id;
  const html = (payload: unknown) => channel.previewHtml?.(payload) ?? `<pre class="payload-json">${escapeHtml(JSON.stringify(payload, null, 2))}</pre>`;
  const build = (run: ExternalRun, settings: ReplayChannelSettings): AnyChannelPlugin => {
    const plugin = channel.plugin({ env: settings.switchEnv ?? {}, settings, ...(run.fake ? { fake: run.fake } : {}) });
    return run.fake ? recordedPlugin(plugin, run.recording) : inMemoryPlugin(plugin, run.recording);
  };
  return {
    id: channel.id,
    label,
    emulated: {
      async start(port): Promise<ExternalRun> {
        const recording = new CallRecording();
        const fake = channel.fake ? await channel.fake.start(port) : undefined;
        return {
          recording,
          ...(fake ? { fake } : {}),
          baseUrl: fake?.baseUrl ?? 'memory:',
          onChange: (listener) => recording.onChange(listener),
          close: async () => fake?.close(),
        };
      },
      plugin: build,
      env: (run: ExternalRun) => run.fake?.env?.() ?? [],
      pluginHint: (run: ExternalRun) => (run.fake ? `${label}: the fake platform at ${run.fake.baseUrl}` : `${label}: in memory (the plugin module brings no fake platform)`),
    },
    real: {
      requiredEnv: channel.requiredEnv ?? [],
      optionalEnv: channel.optionalEnv ?? [],
      plugin: (env, settings) => channel.plugin({ env, settings: { ...settings, switchEnv: settings.switchEnv ?? env } }),
    },
    doctor: {
      ...(channel.monthlyQuota !== undefined ? { monthlyQuota: channel.monthlyQuota } : {}),
      ...(channel.checkCredentials ? { checkCredentials: (env: Env) => channel.checkCredentials!(env) } : {}),
      callbacks: {
        setup: [`see the documentation of the ${label} plugin`],
        listening: 'the plugin\'s callback listener started',
        caveats: ['doctor cannot tell whether the platform sends callbacks to it'],
      },
      payloadProblems: (payload) => (payload === undefined || payload === null ? ['the renderer returned no payload'] : []),
      limitProblems: (payload) => channel.limitProblems?.(payload) ?? [],
      texts: stringsOf,
    },
    preview: {
      cards: (run: ExternalRun) =>
        run.recording.messages().map((message) => ({
          id: message.id,
          revision: String(message.version),
          state: message.final ? 'final' : 'running',
          createdAt: message.createdAt,
          updatedAt: message.updatedAt,
          version: message.version,
          render: () => html(message.payload),
        })),
      calls: (run: ExternalRun) => run.recording.calls(),
      isTokenRoute: () => false,
      isRateLimited: (call) => call.code === 'rate-limited',
      finalPayload: (run: ExternalRun, messageId) => run.recording.messages().find((message) => message.id === messageId)?.payload,
    },
  };
}
