import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Folders a test writes files into (files an agent attaches, a state file), removed together. */
export interface TemporaryFolders {
  /** A new empty folder under the system's temp folder. */
  make(): string;
  /** Removes every folder made so far (with its files); call it in `afterEach`. */
  removeAll(): void;
}

/** {@link TemporaryFolders} named `<prefix>-XXXXXX`. */
export function temporaryFolders(prefix: string): TemporaryFolders {
  const made: string[] = [];
  return {
    make() {
      const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
      made.push(dir);
      return dir;
    },
    removeAll() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
