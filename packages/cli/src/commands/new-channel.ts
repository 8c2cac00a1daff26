import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliUsageError, EXIT } from '../errors.js';
import type { CliIO } from '../io.js';
import { CLI_VERSION } from '../version.js';

/** The template folder: next to `src/` and `dist/` alike, so the same URL works in the repo and installed. */
const TEMPLATE_DIR = fileURLToPath(new URL('../../templates/new-channel/', import.meta.url));

/**
 * Versions the generated package's tools are pinned to: the ones this release of progresscard
 * is tested with (`vitest` must be one the conformance suite supports: ≥ 3.2).
 */
export const SCAFFOLD_TOOL_VERSIONS = { vitest: '4.1.12', typescript: '5.9.3', nodeTypes: '20.19.43' } as const;

/** Where the packed tarballs are, as the next steps print it. */
const TARBALLS_HINT = '/path/to/progresscard/.artifacts/packages/*.tgz   # the packed tarballs';

/** Options of `progresscard new-channel`. */
export interface NewChannelOptions {
  /** The channel id: lowercase letters, digits and dashes, starting with a letter (e.g. `acme-chat`). */
  readonly name: string;
  /** Where to write the package (default `./progresscard-plugin-<name>`, relative to the working directory). */
  readonly dir?: string;
  /** Human name (default: the id in title case). */
  readonly label?: string;
}

/** The names one template uses, from the channel id. */
export function scaffoldNames(id: string, label?: string): Record<string, string> {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(id)) {
    throw new CliUsageError(`new-channel: the name must be lowercase letters and digits, words joined by single dashes, starting with a letter (e.g. acme-chat), got ${JSON.stringify(id)}`);
  }
  const words = id.split('-');
  const Type = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return {
    id,
    factory: Type[0]!.toLowerCase() + Type.slice(1),
    Type,
    Label: label ?? words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' '),
    ENV: words.join('_').toUpperCase(),
    coreVersion: CLI_VERSION,
    cliVersion: CLI_VERSION,
    vitestVersion: SCAFFOLD_TOOL_VERSIONS.vitest,
    typescriptVersion: SCAFFOLD_TOOL_VERSIONS.typescript,
    nodeTypesVersion: SCAFFOLD_TOOL_VERSIONS.nodeTypes,
  };
}

function templateFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? templateFiles(path) : [path];
  });
}

/** `{{name}}` → its value; a placeholder the names do not have is a bug in the template. */
function fill(text: string, names: Record<string, string>, file: string): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = names[key];
    if (value === undefined) throw new Error(`template ${file}: unknown placeholder {{${key}}}`);
    return value;
  });
}

/**
 * Writes a channel plugin package: `defineChannel`, a renderer, an HTTP transport, a fake platform
 * on loopback, the conformance suite wired to it, a CLI config and a README. Returns the files written.
 * @throws CliUsageError for a bad name or a target folder that exists and is not empty.
 */
export function writeChannelScaffold(options: NewChannelOptions, cwd: string): string[] {
  const names = scaffoldNames(options.name, options.label);
  const target = resolve(cwd, options.dir ?? `progresscard-plugin-${options.name}`);
  if (existsSync(target) && readdirSync(target).length > 0) throw new CliUsageError(`new-channel: ${target} exists and is not empty; pick another --dir`);
  const written: string[] = [];
  for (const file of templateFiles(TEMPLATE_DIR)) {
    const name = relative(TEMPLATE_DIR, file).replace(/\.tmpl$/, '').replace(/^gitignore$/, '.gitignore');
    const out = join(target, name);
    mkdirSync(join(out, '..'), { recursive: true });
    writeFileSync(out, fill(readFileSync(file, 'utf8'), names, name));
    written.push(out);
  }
  return written;
}

/** `progresscard new-channel <name>`: writes the package and says what to do next. Resolves with the exit code. */
export async function runNewChannel(options: NewChannelOptions, io: CliIO): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  const files = writeChannelScaffold(options, cwd);
  const root = relative(cwd, resolve(cwd, options.dir ?? `progresscard-plugin-${options.name}`)) || '.';
  io.stdout.write(
    `wrote ${files.length} files in ${root}/\n\nnext:\n  cd ${root}\n  npm install ${TARBALLS_HINT}\n  npm install\n  npm test        # the conformance suite against the fake platform\n  npm run demo    # a recorded agent session on your channel, with a live preview\n\n` +
      `The @progresscard packages are not on the npm registry yet: install the packed tarballs first\n(in a progresscard clone: npm run packages:pack → .artifacts/packages/*.tgz), all in one npm install: they depend on\neach other, so npm lists every one in package.json; once they are on the registry, keep @progresscard/core alone.\n`,
  );
  return EXIT.ok;
}
