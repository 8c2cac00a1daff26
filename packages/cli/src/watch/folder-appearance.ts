import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

/** A wait started by {@link whenFolderAppears}; `close` ends it (idempotent). */
export interface FolderAppearance {
  close(): Promise<void>;
}

const isFolder = (path: string) => stat(path).then((info) => info.isDirectory(), () => false);

/** The closest of `dir` and its ancestors that is an existing folder (`dir` itself when it exists). */
async function nearestExistingFolder(dir: string): Promise<string> {
  let path = dir;
  while (!(await isFolder(path))) {
    const parent = dirname(path);
    if (parent === path) return path;
    path = parent;
  }
  return path;
}

/**
 * Calls `onAppear` once when the folder `dir` (absolute) exists — at once if it already does. Until
 * then it watches the nearest existing ancestor, one level deep (never the whole tree under it, which
 * may be the home folder), and steps down as each missing folder on the way is created, so that
 * `mkdir -p ~/.gemini/tmp/abc/chats` in one go is noticed too. chokidar reports nothing for a path
 * that does not exist yet, hence this.
 */
export function whenFolderAppears(dir: string, onAppear: () => void): FolderAppearance {
  let closed = false;
  let watched: string | undefined;
  let watcher: FSWatcher | undefined;
  let checking: Promise<void> = Promise.resolve();
  const step = async () => {
    if (closed) return;
    const nearest = await nearestExistingFolder(dir);
    if (closed) return;
    if (nearest === dir) {
      closed = true;
      await watcher?.close();
      watcher = undefined;
      onAppear();
      return;
    }
    if (nearest === watched) return;
    await watcher?.close();
    watched = nearest;
    watcher = watch(nearest, { depth: 0, ignoreInitial: true, persistent: true });
    // After `ready` look again: a folder made between the look above and the watch being set is not reported.
    watcher.on('addDir', check).on('ready', check).on('error', () => {});
  };
  function check(): void {
    checking = checking.then(step, step);
  }
  check();
  return {
    async close() {
      closed = true;
      await checking.catch(() => {});
      await watcher?.close();
      watcher = undefined;
    },
  };
}
