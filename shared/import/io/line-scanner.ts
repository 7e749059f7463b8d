/**
 * The text importers' fast path: the line scanner (wasm/line-scanner.ts, compiled to WebAssembly)
 * reads the bytes of a folded-stacks or perf script file and hands the importer records instead
 * of lines. A stack (folded) or a run of frame lines (perf script) met before is recognised on its
 * bytes and given the number it got the first time, so only what is new is ever decoded into text
 * and parsed; a long capture repeats the same few thousand stacks, and most of it is never
 * decoded at all. What the importer makes of a record is exactly what it would make of the same
 * lines read one by one (`forEachLineIn`), which it still does where WebAssembly cannot run;
 * `line-scanner.test.ts` checks that both ways import the same.
 *
 * Records, eight 32-bit words each (kind, start and end as byte offsets in the scanner's buffer, a
 * number, lines skipped before it, lines it covers, one more number) and two 64-bit numbers: see
 * ./scanner-layout, generated with the scanner's side from one table in scripts/build-wasm.mjs.
 */
import { ImportError } from '../errors';
import { MAX_LINE } from './lines';
import { LINE_WORDS, NUMS, REC, Rec, Word } from './scanner-layout';
import { LINE_SCANNER_WASM } from './line-scanner-wasm';
import type { OpenedSource } from './source';

export { LINE_WORDS, NUMS, REC, Rec, Word };

/**
 * The part of the WebAssembly API used here, typed locally: it is a global of every JavaScript
 * engine Flamelens runs on, but not part of the libraries `shared/` is checked against.
 */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
  RuntimeError: new () => Error;
}
const wasmApi = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

interface Exports {
  memory: WasmMemory;
  init(mode: number): void;
  reserve(n: number): number;
  wrote(n: number): void;
  scan(last: number): number;
  records(): number;
  lines(): number;
  weights(): number;
  base(): number;
  isHungry(): number;
  shapeSpace(n: number): number;
  addShape(headLen: number, tailLen: number): number;
  pendingLines(): number;
  unread(): number;
  runsFound(): number;
  remembersStacks(): number;
  nodeGrowth(which: number): number;
}

let compiled: object | null | undefined;
let enabled = true;

/** Turns the fast path off (or on again): for tests that compare it with reading line by line. */
export function setLineScannerEnabled(on: boolean): void {
  enabled = on;
}

function scannerModule(): object | undefined {
  if (compiled === undefined) {
    try {
      const text = atob(LINE_SCANNER_WASM);
      const bytes = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
      if (wasmApi === undefined) throw new Error('no WebAssembly');
      compiled = new wasmApi.Module(bytes);
    } catch {
      // No WebAssembly here (or a policy that forbids compiling it): lines are read as text.
      compiled = null;
    }
  }
  return compiled ?? undefined;
}

/** One batch of records, read by the importer before the scanner goes on. */
export class ScanBatch {
  records = new Int32Array(0);
  numbers = new Float64Array(0);
  /**
   * perf script: `LINE_WORDS` words for each line of the runs met for the first time; a run's
   * `extra` is where its lines' words start (-1: none). A plain frame line (wasm/perf.ts,
   * `frameColumns`): the number of its symbol (without offset) and dso column among those the
   * scanner remembers, where the symbol starts and ends, where the dso column starts and ends.
   * Any other line: its number among the lines remembered, where it starts and ends without its
   * line break, -1, 0.
   */
  lineWords = new Int32Array(0);
  count = 0;
  /** lines before the next record to be read: `line(i)` moves it on */
  lineNo = 0;
  private bytes = new Uint8Array(0);
  private base = 0;
  // A mark at the start of line 1 never reaches the scanner (`startsWithBom`): any other is text.
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });

  private readonly encoder = new TextEncoder();

  constructor(
    private readonly file: string,
    private readonly ex: Exports,
  ) {}

  /** @internal */
  update(count: number): void {
    const memory = this.ex.memory;
    const ex = this.ex;
    if (this.bytes.buffer !== memory.buffer) this.bytes = new Uint8Array(memory.buffer);
    this.records = new Int32Array(memory.buffer, ex.records(), count * REC);
    this.numbers = new Float64Array(memory.buffer, ex.weights(), count * NUMS);
    this.lineWords = new Int32Array(memory.buffer, ex.lines(), (memory.buffer.byteLength - ex.lines()) >> 2);
    this.base = ex.base();
    this.count = count;
  }

  /**
   * Makes header lines that are `head`, a time column and `tail` come as `Rec.Header` records
   * from the next batch on; returns the shape's number, or -1 when the scanner keeps no more
   * shapes. (The memory it writes to is set aside at the start: records already read stay put.)
   */
  addShape(head: string, tail: string): number {
    const h = this.encoder.encode(head);
    const t = this.encoder.encode(tail);
    const at = this.ex.shapeSpace(h.length + t.length);
    if (at === 0) return -1;
    const bytes = new Uint8Array(this.ex.memory.buffer);
    bytes.set(h, at);
    bytes.set(t, at + h.length);
    return this.ex.addShape(h.length, t.length);
  }

  /** Moves the line count past record `i`; returns the number of its first line. */
  line(i: number): number {
    const o = i * REC;
    const first = this.lineNo + this.records[o + Word.Skipped]! + 1;
    this.lineNo = first - 1 + this.records[o + Word.Lines]!;
    return first;
  }

  /**
   * The text of record `i` (its first line being `lineNo`). The file's first line is decoded as
   * `forEachLineIn` decodes the start of a file: a byte-order mark there is dropped.
   */
  text(i: number, lineNo: number): string {
    const o = i * REC;
    const s = this.decode(this.records[o + Word.Start]!, this.records[o + Word.End]!);
    if (s.length > MAX_LINE && this.records[o + Word.Lines] === 1) throw tooLong(this.file, lineNo);
    return s;
  }

  /**
   * perf script: how many runs of frame lines the scanner recognised whole so far, on their bytes
   * (a run it does not is read line by line and ends up the same: this tells tests which way it went)
   */
  get runsFound(): number {
    return this.ex.runsFound();
  }

  /**
   * Folded stacks: whether the scanner still remembers the stacks it has met, so that a line met
   * again is known at once; files that write each stack once (what collapsers write) stop it, and
   * every line is walked down the call tree (this tells tests which way it went)
   */
  get remembersStacks(): boolean {
    return this.ex.remembersStacks() !== 0;
  }

  /**
   * Folded stacks: how the scanner's call tree grew: in place, into a new table, and how many of
   * its nodes waited to be placed in a growth in place (this tells tests which way it went)
   */
  get nodeGrowth(): { inPlace: number; anew: number; late: number } {
    return { inPlace: this.ex.nodeGrowth(0), anew: this.ex.nodeGrowth(1), late: this.ex.nodeGrowth(2) };
  }

  /** The text of bytes `[from, to)` of the buffer (every line decodes alike: see `startsWithBom`). */
  decode(from: number, to: number): string {
    return this.decoder.decode(this.bytes.subarray(this.base + from, this.base + to));
  }
}

function tooLong(file: string, line: number): ImportError {
  return new ImportError({ file, line, message: `line is longer than ${MAX_LINE} characters` });
}

/**
 * Whether bytes start with a UTF-8 byte-order mark. The source drops a file's first one; a second
 * at the start of the first line is dropped too, as the line reader drops it when it decodes line
 * 1 — here before the scanner sees the bytes, so that the first line is not remembered with a mark
 * a later, identical-looking line keeps (`\uFEFF;main` on line 2 is a frame named U+FEFF).
 */
function startsWithBom(b: Uint8Array): boolean {
  return b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
}

/** Bytes read at once straight into the scanner's memory (`OpenedSource.readInto`). */
const PIECE = 256 * 1024;

/**
 * Reads the source with the scanner in `mode`, calling `onBatch` for each batch of records;
 * returns the number of lines, or `undefined` without reading anything when the scanner cannot
 * run here (the caller then reads the lines as text). A source that can (`readInto`) reads
 * straight into the scanner's memory; else each chunk is copied into it at once and given back
 * to the source (`recycle`).
 */
export async function scanRecords(
  source: Pick<OpenedSource, 'chunks' | 'recycle' | 'readInto'>,
  file: string,
  mode: 'folded' | 'perf',
  onBatch: (batch: ScanBatch) => void,
): Promise<number | undefined> {
  const mod = enabled ? scannerModule() : undefined;
  if (mod === undefined) return undefined;
  const ex = new wasmApi!.Instance(mod, {}).exports as Exports;
  const batch = new ScanBatch(file, ex);
  const drain = (last: number) => {
    for (;;) {
      const n = ex.scan(last);
      if (n > 0) {
        batch.update(n);
        onBatch(batch);
      }
      if (ex.isHungry() !== 0) return;
    }
  };
  const scanned = () => {
    drain(0);
    // A line longer than any line can be is not one to wait for: past MAX_LINE bytes it is too
    // long in characters as well, whatever they are (a gzip bomb of one endless line ends here).
    if (ex.unread() > MAX_LINE) throw tooLong(file, batch.lineNo + ex.pendingLines() + 1);
  };
  try {
    ex.init(mode === 'folded' ? 0 : 1);
    if (source.readInto) {
      for (let first = true; ; first = false) {
        const at = ex.reserve(PIECE);
        const piece = new Uint8Array(ex.memory.buffer, at, PIECE);
        const n = source.readInto(piece);
        if (n === 0) break;
        if (first && n >= 3 && startsWithBom(piece)) {
          piece.copyWithin(0, 3, n);
          ex.wrote(n - 3);
        } else ex.wrote(n);
        scanned();
      }
    } else {
      // The first bytes wait until it is known whether they are a byte-order mark (see below).
      let held: Uint8Array | undefined = new Uint8Array(0);
      const feed = (bytes: Uint8Array) => {
        const at = ex.reserve(bytes.length);
        new Uint8Array(ex.memory.buffer, at, bytes.length).set(bytes);
        ex.wrote(bytes.length);
      };
      for await (const chunk of source.chunks()) {
        if (held) {
          const joined: Uint8Array = new Uint8Array(held.length + chunk.length);
          joined.set(held);
          joined.set(chunk, held.length);
          source.recycle(chunk);
          if (joined.length < 3) {
            held = joined;
            continue;
          }
          held = undefined;
          feed(joined.subarray(startsWithBom(joined) ? 3 : 0));
        } else {
          feed(chunk);
          source.recycle(chunk);
        }
        scanned();
      }
      if (held && held.length > 0) feed(held);
    }
    drain(1);
  } catch (e) {
    if (e instanceof wasmApi!.RuntimeError)
      throw new ImportError({ file, line: batch.lineNo + 1, message: 'ran out of memory reading the file' });
    throw e;
  }
  return batch.lineNo + ex.pendingLines();
}
