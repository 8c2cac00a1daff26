import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CliUsageError } from '../errors.js';
import { type CliChannel, externalChannelDescriptor } from './external.js';
import { registerChannel } from './index.js';

/**
 * Loads channels from outside this package: the modules named by `--plugin <module>` and the
 * `channels` of a config file (`--config <file>`, else `progresscard.config.mjs` or `.js` in the
 * working directory), and registers each with the commands.
 */

/** Config file names looked for in the working directory, in this order. */
export const CONFIG_FILE_NAMES = ['progresscard.config.mjs', 'progresscard.config.js'] as const;

/** What a config file's default export holds. */
export interface ProgressCardConfig {
  /** Channels to offer besides the built-in ones. */
  readonly channels: readonly CliChannel[];
}

/** Where to find plugin modules. */
export interface PluginModuleOptions {
  /** `--config <file>`; absent: a {@link CONFIG_FILE_NAMES} file in `cwd`, if any. */
  readonly configPath?: string;
  /** `--plugin <module>` values: a path (relative to `cwd`) or a package name installed in `cwd`. */
  readonly plugins: readonly string[];
  readonly cwd: string;
}

/**
 * `--config <file>` and `--plugin <module>` (repeatable, anywhere on the line) taken out of `argv`
 * before commander parses the rest: the channels they add must exist before `--channel` is parsed.
 * @throws CliUsageError for a flag without a value.
 */
export function pluginModuleFlags(argv: readonly string[]): { configPath?: string; plugins: string[]; rest: string[] } {
  const plugins: string[] = [];
  const rest: string[] = [];
  let configPath: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (flag !== '--plugin' && flag !== '--config') {
      rest.push(arg);
      continue;
    }
    const value = inline ?? argv[i + 1];
    if (inline === undefined) i += 1;
    if (value === undefined || value.startsWith('--')) throw new CliUsageError(`${flag} needs a value: ${flag === '--plugin' ? 'a module path or package name' : 'a config file path'}`);
    if (flag === '--plugin') plugins.push(value);
    else configPath = value;
  }
  return { ...(configPath !== undefined ? { configPath } : {}), plugins, rest };
}

/** The file URL of `specifier`: a path relative to `cwd`, or a package installed where `cwd` can see it. */
function moduleUrl(specifier: string, cwd: string): string {
  if (specifier.startsWith('.') || isAbsolute(specifier)) {
    const path = resolve(cwd, specifier);
    if (!existsSync(path)) throw new CliUsageError(`--plugin ${specifier}: no such file (${path})`);
    return pathToFileURL(path).href;
  }
  try {
    return pathToFileURL(createRequire(join(cwd, 'package.json')).resolve(specifier)).href;
  } catch (error) {
    throw new CliUsageError(`--plugin ${specifier}: cannot resolve the package from ${cwd} (${(error as Error).message.split('\n')[0]}); install it there or give a path to its module`);
  }
}

/** The channels a module's default export describes: one channel, a list, or `{ channels }`. */
function channelsOf(exported: unknown, where: string): CliChannel[] {
  const list = Array.isArray(exported) ? exported : exported && typeof exported === 'object' && 'channels' in exported ? (exported as { channels: unknown }).channels : [exported];
  if (!Array.isArray(list)) throw new CliUsageError(`${where}: "channels" must be a list of channels, got ${typeof list}`);
  return list.map((channel, index) => checkedChannel(channel, `${where}: channels[${index}]`));
}

function checkedChannel(value: unknown, where: string): CliChannel {
  if (!value || typeof value !== 'object') throw new CliUsageError(`${where} must be an object with id and plugin(), got ${JSON.stringify(value) ?? String(value)}`);
  const channel = value as Partial<CliChannel>;
  if (typeof channel.id !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(channel.id)) {
    throw new CliUsageError(`${where}.id must be lowercase letters, digits and dashes, got ${JSON.stringify(channel.id)}`);
  }
  if (typeof channel.plugin !== 'function') throw new CliUsageError(`${where}.plugin must be a function that builds the channel's plugin, got ${typeof channel.plugin}`);
  if (channel.fake !== undefined && typeof channel.fake?.start !== 'function') throw new CliUsageError(`${where}.fake.start must be a function, got ${typeof channel.fake?.start}`);
  return channel as CliChannel;
}

async function importDefault(url: string, where: string): Promise<unknown> {
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new CliUsageError(`${where}: the module failed to load: ${error instanceof Error ? error.message : String(error)}`);
  }
  return module.default ?? module.channels ?? module.channel;
}

/**
 * Imports the plugin modules and the config file and registers their channels.
 * @returns the ids registered, in order.
 * @throws CliUsageError naming the module and the bad field (a missing file, a module without a
 *   default export, a channel without `id` or `plugin`, an id already taken).
 */
export async function loadPluginModules(options: PluginModuleOptions): Promise<string[]> {
  const channels: CliChannel[] = [];
  const configPath = options.configPath ?? CONFIG_FILE_NAMES.map((name) => join(options.cwd, name)).find((path) => existsSync(path));
  if (configPath !== undefined) {
    const path = resolve(options.cwd, configPath);
    if (!existsSync(path)) throw new CliUsageError(`--config ${configPath}: no such file (${path})`);
    const exported = await importDefault(pathToFileURL(path).href, path);
    if (!exported || typeof exported !== 'object' || !('channels' in exported)) throw new CliUsageError(`${path}: the default export must be { channels: [...] }`);
    channels.push(...channelsOf(exported, path));
  }
  for (const specifier of options.plugins) {
    channels.push(...channelsOf(await importDefault(moduleUrl(specifier, options.cwd), `--plugin ${specifier}`), `--plugin ${specifier}`));
  }
  for (const channel of channels) {
    try {
      registerChannel(externalChannelDescriptor(channel));
    } catch (error) {
      throw new CliUsageError((error as Error).message);
    }
  }
  return channels.map((channel) => channel.id);
}
