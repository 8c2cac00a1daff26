import type { EventOf } from '../events/contract.js';
import { wellFormed } from './format/text.js';
import type { ChangedFile } from './view.js';

/**
 * The files a run changed, in the order first changed: one entry per path, line counts added up over
 * every change of that path. Counts stay unknown (absent) while no change of the path reported them.
 */
export class ChangedFiles {
  private readonly byPath = new Map<string, ChangedFile>();

  /** Records one `file.changed`; returns true when the list changed. */
  add(event: EventOf<'file.changed'>): boolean {
    const path = wellFormed(event.path);
    const known = this.byPath.get(path);
    const sum = (a: number | undefined, b: number | undefined) => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));
    // A file added in this run stays "added" through later edits; a deletion is the last word.
    const kind = event.kind === 'deleted' ? 'deleted' : known?.kind === 'added' ? 'added' : (event.kind ?? known?.kind ?? 'modified');
    this.byPath.set(path, { path, kind, added: sum(known?.added, event.added), removed: sum(known?.removed, event.removed) });
    return true;
  }

  /** The files in first-change order. */
  list(): readonly ChangedFile[] {
    return [...this.byPath.values()];
  }
}
