import { readFileSync } from 'node:fs';

/**
 * The version of `@progresscard/cli`, read from its package.json (which sits next to both `src/`
 * and `dist/`, so the same relative URL works in the repo and in the installed package).
 */
export const CLI_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
