/**
 * A text edited in place near a moving cursor (a gap buffer of UTF-16 code units): deleting or
 * inserting costs the distance from the last edit, not the text's length. `neutraliseLinks` removes
 * up to 200 links from one text; rebuilding a 1 MB string for each took seconds (each a fresh large
 * string for the garbage collector), where editing here is linear in the text.
 */
export class GapText {
  /** The text until its first edit (read as it is: most texts are never edited), then undefined. */
  private source: string | undefined;
  private buf = new Uint16Array(0);
  private gapStart = 0;
  private gapEnd = 0;

  constructor(text: string) {
    this.source = text;
  }

  get length(): number {
    return this.source !== undefined ? this.source.length : this.buf.length - (this.gapEnd - this.gapStart);
  }

  /** The code unit at `i` (0 ≤ i < length). */
  code(i: number): number {
    if (this.source !== undefined) return this.source.charCodeAt(i);
    return this.buf[i < this.gapStart ? i : i + this.gapEnd - this.gapStart]!;
  }

  /** The code unit at `i`, or NaN outside the text (like `String.prototype.charCodeAt`). */
  charCodeAt(i: number): number {
    return i >= 0 && i < this.length ? this.code(i) : Number.NaN;
  }

  /** The character at `i`, or '' outside the text (like `String.prototype.charAt`). */
  charAt(i: number): string {
    return i >= 0 && i < this.length ? String.fromCharCode(this.code(i)) : '';
  }

  /** Index of the first `first` followed by `second` (code units) at or after `from`, or -1. */
  indexOfPair(first: number, second: number, from: number): number {
    const end = this.length - 1;
    for (let i = Math.max(0, from); i < end; i++) if (this.code(i) === first && this.code(i + 1) === second) return i;
    return -1;
  }

  /** Index of the first code unit `code` at or after `from`, or -1. */
  indexOfCode(code: number, from: number): number {
    const length = this.length;
    for (let i = Math.max(0, from); i < length; i++) if (this.code(i) === code) return i;
    return -1;
  }

  /** The text from `start` to `end` (clamped, like `String.prototype.slice` with non-negative bounds). */
  slice(start: number, end = this.length): string {
    if (this.source !== undefined) return this.source.slice(Math.max(0, start), Math.max(0, end));
    const from = Math.max(0, Math.min(start, this.length));
    const to = Math.max(from, Math.min(end, this.length));
    let out = '';
    // In pieces: `String.fromCharCode(...)` takes its arguments on the stack.
    for (let i = from; i < to; i += 8192) {
      const stop = Math.min(to, i + 8192);
      out += i >= this.gapStart ? this.piece(i, stop) : stop <= this.gapStart ? this.piece(i, stop) : this.piece(i, this.gapStart) + this.piece(this.gapStart, stop);
    }
    return out;
  }

  /** Removes the code units from `start` to `end`. */
  delete(start: number, end: number): void {
    this.edit();
    this.moveGap(start);
    this.gapEnd += end - start;
  }

  /** Inserts `text` at `at`. */
  insert(at: number, text: string): void {
    this.edit();
    if (this.gapEnd - this.gapStart < text.length) this.grow(text.length);
    this.moveGap(at);
    for (let i = 0; i < text.length; i++) this.buf[this.gapStart++] = text.charCodeAt(i);
  }

  toString(): string {
    return this.slice(0, this.length);
  }

  /** Before the first edit: the text moves into the buffer. */
  private edit(): void {
    const text = this.source;
    if (text === undefined) return;
    this.buf = new Uint16Array(text.length + 64);
    for (let i = 0; i < text.length; i++) this.buf[i] = text.charCodeAt(i);
    this.gapStart = text.length;
    this.gapEnd = this.buf.length;
    this.source = undefined;
  }

  /** Code units `start`..`end` of the text, both on one side of the gap. */
  private piece(start: number, end: number): string {
    const offset = start < this.gapStart ? 0 : this.gapEnd - this.gapStart;
    return String.fromCharCode(...this.buf.subarray(start + offset, end + offset));
  }

  private moveGap(at: number): void {
    if (at < this.gapStart) {
      const count = this.gapStart - at;
      this.buf.copyWithin(this.gapEnd - count, at, this.gapStart);
      this.gapStart = at;
      this.gapEnd -= count;
    } else if (at > this.gapStart) {
      const count = at - this.gapStart;
      this.buf.copyWithin(this.gapStart, this.gapEnd, this.gapEnd + count);
      this.gapStart = at;
      this.gapEnd += count;
    }
  }

  private grow(needed: number): void {
    const size = this.buf.length + Math.max(needed, this.buf.length >> 1, 64);
    const next = new Uint16Array(size);
    next.set(this.buf.subarray(0, this.gapStart));
    const tail = this.buf.length - this.gapEnd;
    next.set(this.buf.subarray(this.gapEnd), size - tail);
    this.gapEnd = size - tail;
    this.buf = next;
  }
}
