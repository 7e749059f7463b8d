// AssemblyScript, compiled to WebAssembly by scripts/build-wasm.mjs into
// shared/import/io/line-scanner-wasm.ts (the bytes, base64). What it does and why is told in
// shared/import/io/line-scanner.ts, which runs it: the text importers' lines are found, sorted and
// recognised here, on the bytes, so that a line or stack met before is never decoded again.
//
// This file is the module's face: the input buffer the caller writes chunks into, and `scan`.
// memory.ts allocates and does the byte work, table.ts remembers strings, records.ts writes what
// the caller reads, folded.ts and perf.ts read the two formats, runs.ts finds perf call chains
// met before.
import { alloc, findNl, resetMemory } from './memory';
import { remember, resetFolded, scanFolded } from './folded';
import { lineWords, resetPerf, scanPerf, wholeRuns } from './perf';
import { hungry, numberArea, out, pending, recordArea, resetRecords, startRecords } from './records';
import { resetTable } from './table';
import { nodeTableGrowth } from './nodes';

export { addShape, shapeSpace } from './perf';

let mode: i32 = 0;
let buf: usize = 0;
let cap: usize = 0;
let pos: usize = 0;
let end: usize = 0;
/**
 * Bytes from `pos` known to hold no line break: a line longer than what has been read so far is
 * looked for only in the bytes added since, so reading it costs its length once, not once per
 * chunk (a gzip bomb of one 1 GB line took minutes).
 */
let noNl: usize = 0;

/** Starts an import: 0 folded stacks, 1 perf script. */
export function init(m: i32): void {
  mode = m;
  resetMemory();
  cap = 2 << 20;
  buf = alloc(cap);
  pos = buf;
  end = buf;
  noNl = 0;
  resetRecords();
  resetTable();
  resetFolded();
  resetPerf();
}

/** Where the caller writes the next `n` bytes; what is not read yet moves to the buffer's start. */
export function reserve(n: usize): usize {
  const keep = end - pos;
  if (keep + n > cap) {
    let c = cap << 1;
    while (c < keep + n) c <<= 1;
    const b = alloc(c);
    memory.copy(b, pos, keep);
    buf = b;
    cap = c;
  } else if (pos > buf) memory.copy(buf, pos, keep);
  pos = buf;
  end = buf + keep;
  return end;
}

/** The caller wrote `n` bytes where `reserve` said. */
export function wrote(n: usize): void {
  end += n;
}

/**
 * Reads the complete lines in the buffer (all of it when `last`), writing records; returns how
 * many. Stops early when the records are full (`isHungry()` is then 0: call again).
 */
export function scan(last: i32): i32 {
  startRecords(buf);
  if (last == 0 && noNl > 0 && findNl(pos + noNl, end) == end) {
    noNl = end - pos;
    return 0;
  }
  const before = pos;
  pos = mode == 0 ? scanFolded(pos, end, last != 0) : scanPerf(pos, end, last != 0);
  noNl = last == 0 && hungry != 0 && pos == before && findNl(pos, end) == end ? end - pos : 0;
  return out;
}

export function lines(): usize {
  return lineWords();
}
export function records(): usize {
  return recordArea();
}
export function weights(): usize {
  return numberArea();
}
export function base(): usize {
  return buf;
}
export function isHungry(): i32 {
  return hungry;
}
/** Lines read after the last record (at the end: empty lines that end the file). */
export function pendingLines(): i32 {
  return pending;
}
/** Bytes not read yet: a line longer than a chunk grows this. */
export function unread(): usize {
  return end - pos;
}
/** perf script: runs of frame lines recognised whole so far. */
export function runsFound(): i32 {
  return wholeRuns;
}
/** Folded stacks: how the scanner's call tree grew (nodes.ts, `nodeTableGrowth`). */
export function nodeGrowth(which: i32): i32 {
  return nodeTableGrowth(which);
}
/** Folded stacks: 1 while stacks are still remembered, 0 once every line is walked (folded.ts). */
export function remembersStacks(): i32 {
  return remember ? 1 : 0;
}
