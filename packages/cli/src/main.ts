import { CommanderError } from 'commander';
import { pc } from './terminal/colors.js';
import { CliUsageError, EXIT } from './errors.js';
import type { CliIO } from './io.js';
import { clearRegisteredChannels } from './channels/index.js';
import { loadPluginModules, pluginModuleFlags } from './channels/plugin-modules.js';
import { buildProgram } from './program.js';

/**
 * Runs the `progresscard` command line with `argv` (without the node and script entries) and
 * resolves with the exit code; never calls `process.exit`, so tests can run it in-process.
 */
export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  let exitCode: number = EXIT.ok;
  try {
    const { rest, ...modules } = pluginModuleFlags(argv);
    clearRegisteredChannels();
    await loadPluginModules({ ...modules, cwd: io.cwd ?? process.cwd() });
    const program = buildProgram(io, (code) => (exitCode = code));
    await program.parseAsync(rest, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help / --version end with code 0; a parse error was already printed by commander.
      if (error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.help') return EXIT.ok;
      return EXIT.usage;
    }
    if (error instanceof CliUsageError) {
      io.stderr.write(`${pc.red('error:')} ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr.write(`${pc.red('error:')} ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT.failed;
  }
}
