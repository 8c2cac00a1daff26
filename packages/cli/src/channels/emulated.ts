import { emulatorPreviewSource } from '../preview/sources.js';
import type { PreviewSource } from '../preview/model.js';
import type { AnyChannelDescriptor, AnyChannelPlugin, ChannelDescriptor, EnvLine, ReplayChannelSettings, RunningEmulator } from './descriptor.js';
import { channelDescriptor, type ChannelId } from './index.js';

/** One channel's emulator, started, with everything the commands do with it. */
export interface EmulatedChannel {
  readonly descriptor: AnyChannelDescriptor;
  readonly baseUrl: string;
  /** The preview panel reading the emulator's accepted state. */
  readonly source: PreviewSource;
  /** The channel's plugin pointed at the emulator. */
  plugin(settings: ReplayChannelSettings): AnyChannelPlugin;
  /** The `--real` variables that send to this emulator. */
  env(): readonly EnvLine[];
  /** How a program points the plugin at this emulator. */
  pluginHint(): string;
  /** The emulator's read-back of a card's final payload, or undefined. */
  finalPayload(messageId: string): unknown;
  /**
   * Resolves once the emulator has applied every answer the plugin already gave (a pulled platform
   * records a poll when its answer arrives, after the plugin counted it served); at once for the others.
   */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** The emulators of a session, started on loopback. */
export interface Emulators {
  /** In the order they were asked for. */
  readonly channels: readonly EmulatedChannel[];
  /** Preview panels, one per channel. */
  readonly sources: PreviewSource[];
  /** The running emulator of `descriptor` (typed, for tests and fault injection), or undefined. */
  emulator<Emulator extends RunningEmulator>(descriptor: ChannelDescriptor<string, Emulator>): Emulator | undefined;
  /** The started channel with id `id`, or undefined. */
  channel(id: string): EmulatedChannel | undefined;
  close(): Promise<void>;
}

/** Ports to listen on per channel id (0 or absent = any free port). */
export type EmulatorPorts = Readonly<Partial<Record<ChannelId, number>>>;

async function startChannel<Emulator extends RunningEmulator>(
  descriptor: ChannelDescriptor<string, Emulator>,
  port: number,
): Promise<{ emulated: EmulatedChannel; emulator: Emulator }> {
  const emulator = await descriptor.emulated.start(port);
  const emulated: EmulatedChannel = {
    descriptor,
    baseUrl: emulator.baseUrl,
    source: emulatorPreviewSource(descriptor, emulator),
    plugin: (settings) => descriptor.emulated.plugin(emulator, settings),
    env: () => descriptor.emulated.env(emulator),
    pluginHint: () => descriptor.emulated.pluginHint(emulator),
    finalPayload: (messageId) => descriptor.preview.finalPayload(emulator, messageId),
    settled: async () => descriptor.preview.settled?.(emulator),
    close: () => emulator.close(),
  };
  return { emulated, emulator };
}

/**
 * Starts the emulators of `channels` on 127.0.0.1 with their default app credentials.
 * @throws the listen error (e.g. `EADDRINUSE`) after closing the emulators already started.
 */
export async function startEmulators(channels: readonly ChannelId[], ports: EmulatorPorts = {}): Promise<Emulators> {
  const started: Array<{ emulated: EmulatedChannel; emulator: RunningEmulator }> = [];
  try {
    for (const id of channels) started.push(await startChannel(channelDescriptor(id), ports[id] ?? 0));
  } catch (error) {
    await Promise.all(started.map((s) => s.emulated.close()));
    throw error;
  }
  const list = started.map((s) => s.emulated);
  return {
    channels: list,
    sources: list.map((c) => c.source),
    emulator: <Emulator extends RunningEmulator>(descriptor: ChannelDescriptor<string, Emulator>) =>
      started.find((s) => s.emulated.descriptor === descriptor)?.emulator as Emulator | undefined,
    channel: (id) => list.find((c) => c.descriptor.id === id),
    close: async () => void (await Promise.all(list.map((c) => c.close()))),
  };
}

/** The real plugins, pointed at the emulators. */
export function emulatedPlugins(emulators: Emulators, settings: ReplayChannelSettings): AnyChannelPlugin[] {
  return emulators.channels.map((channel) => channel.plugin(settings));
}
