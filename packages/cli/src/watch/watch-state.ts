import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { MessageRef } from '@progresscard/core';
import type { TailPosition } from './file-tail.js';

/** A run whose card is open, as a restarted watch needs it to continue the same card. */
export interface OpenRunState {
  /** Run number within the file's reading (counted from `FileState.readFrom`). */
  readonly run: number;
  /** The card message on each channel, by channel id. */
  readonly messages: Readonly<Record<string, MessageRef>>;
}

/** What watch remembers of one session file. */
export interface FileState extends TailPosition {
  /** Byte offset where the current reading of the file began (its runs are counted from there). */
  readonly readFrom: number;
  /** The run still mirrored when the state was written, if any. */
  readonly open?: OpenRunState;
}

/** The state file: one entry per session file path. */
interface WatchStateData {
  readonly version: 1;
  readonly files: Readonly<Record<string, FileState>>;
}

/**
 * The per-file read positions and open cards of `progresscard watch`, kept in a JSON file so a
 * restart neither re-posts finished runs nor loses a running one. Writes are atomic (a temporary
 * file renamed over the old one) and serialized.
 */
export class WatchState {
  private files: Record<string, FileState> = {};
  private writing: Promise<void> = Promise.resolve();

  private constructor(private readonly path: string) {}

  /**
   * Loads the state at `path` (none yet: empty).
   * @throws Error naming the path when the file exists but is not a watch state.
   */
  static async load(path: string): Promise<WatchState> {
    const state = new WatchState(path);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return state;
      throw error;
    }
    const data = JSON.parse(text) as Partial<WatchStateData>;
    if (data.version !== 1 || typeof data.files !== 'object' || data.files === null) {
      throw new Error(`${path} is not a progresscard watch state (expected {"version":1,"files":{…}})`);
    }
    state.files = { ...data.files };
    return state;
  }

  get(file: string): FileState | undefined {
    return this.files[file];
  }

  /** Sets one file's state and writes the state file (resolves once written). */
  set(file: string, value: FileState): Promise<void> {
    this.files[file] = value;
    return this.save();
  }

  private save(): Promise<void> {
    const data: WatchStateData = { version: 1, files: this.files };
    this.writing = this.writing.then(async () => {
      await mkdir(dirname(this.path), { recursive: true });
      const temporary = `${this.path}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(data, null, 2)}\n`);
      await rename(temporary, this.path);
    });
    return this.writing;
  }
}
