import { pc } from '../terminal/colors.js';
import { startEmulators, type Emulators, type EmulatorPorts } from '../channels/emulated.js';
import { channelIds } from '../channels/index.js';
import { CliUsageError, EXIT } from '../errors.js';
import { waitFor, type CliIO } from '../io.js';
import { startPreviewServer, type PreviewServer } from '../preview/server.js';

/** Options of the `emulator` command. */
export interface EmulatorCommandOptions {
  /** The first channel's emulator listens on `port`, the next ones on `port + 1`, `port + 2`…; 0 = free ports. */
  readonly port: number;
  readonly preview: boolean;
  readonly previewPort: number;
}

/** Default port of the first standalone emulator (Feishu; DingTalk: the next one). */
export const DEFAULT_EMULATOR_PORT = 4871;

/**
 * `progresscard emulator`: every channel's emulator on loopback until Ctrl-C, with its base URL,
 * the variables that point `--real` (or a program) at it, and (by default) the live preview of
 * every card they receive.
 */
export async function runEmulatorCommand(o: EmulatorCommandOptions, io: CliIO): Promise<number> {
  let emulators: Emulators | undefined;
  let preview: PreviewServer | undefined;
  try {
    const ids = channelIds();
    const ports: EmulatorPorts = Object.fromEntries(ids.map((id, i) => [id, o.port === 0 ? 0 : o.port + i]));
    emulators = await startEmulators(ids, ports).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE') throw error;
      const last = o.port + ids.length - 1;
      throw new CliUsageError(`port ${o.port}${last > o.port ? ` or ${o.port + 1}` : ''}${last > o.port + 1 ? `…${last}` : ''} is already in use; pick others with --port <port> (or --port 0 for free ones)`);
    });
    const out = (line = '') => io.stdout.write(`${line}\n`);
    out(pc.bold('progresscard emulators running on loopback'));
    const width = Math.max(...emulators.channels.map((c) => c.descriptor.label.length)) + 2;
    for (const channel of emulators.channels) {
      out();
      out(`${pc.bold(channel.descriptor.label.padEnd(width))} ${pc.cyan(channel.baseUrl)}   (plugin: ${channel.pluginHint()})`);
      for (const line of channel.env()) out(`  export ${line.name}=${line.value}${line.note ? `   # ${line.note}` : ''}`);
    }
    if (o.preview) {
      preview = await startPreviewServer({
        sources: emulators.sources,
        runInfo: () => ({ title: 'progresscard emulators', phase: 'emulator' }),
        port: o.previewPort,
      });
      out();
      out(`${pc.bold('Live preview')}   ${pc.underline(pc.cyan(preview.url))}`);
    }
    out();
    out(pc.dim('Press Ctrl-C to stop.'));
    await waitFor(io.signal, Number.POSITIVE_INFINITY);
    return EXIT.ok;
  } finally {
    await preview?.close();
    await emulators?.close();
  }
}
