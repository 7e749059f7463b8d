// What a scan hands the importer: records of eight words (kind, start and end as offsets in the
// input buffer, a number, lines skipped before it, its own lines, one more number, unused) and
// two 64-bit numbers each. shared/import/line-scanner.ts reads them; the kinds are the same
// numbers there.
import { alloc } from './memory';

// Folded stacks:
export const KNOWN: i32 = 0; // a `stack count` line whose stack was met before: arg = stack, weight
export const NEW: i32 = 1; // the first line of a stack the importer reads itself: arg = stack, start/end = the line
export const SLOW: i32 = 2; // any other line: start/end = the line
export const AT_NODE: i32 = 7; // a `stack count` line whose stack leads to node arg (see FRAME, NODE), weight
export const FRAME: i32 = 8; // a frame label met for the first time: arg = frame, start/end = the label
export const NODE: i32 = 9; // a call-tree node made: arg = node, start = its parent (-1: the root), end = its frame
// perf script:
export const LINE: i32 = 3; // a line that is not a frame line of a run: start/end
export const BLANK: i32 = 4; // an empty line
export const RUN: i32 = 5; // consecutive indented lines: arg = run (-1: not remembered), start/end = their bytes, \n included
export const HEADER: i32 = 6; // a line of a header shape: arg = shape, extra = digits after the point, numbers = seconds, fraction

/** Records per `scan` call. */
export const OUT_CAP: i32 = 4096;
/** Words (i32) per record. */
const REC: i32 = 8;
/** Numbers (f64) per record. */
const NUMS: i32 = 2;

let rec: usize = 0;
let nums: usize = 0;
/** records written by this scan */
export let out: i32 = 0;
/** lines consumed but not yet reported in a record */
export let pending: i32 = 0;
/** the scan stopped because the input ran out (not because the records were full) */
export let hungry: i32 = 1;
/** what offsets are counted from: the input buffer */
let base: usize = 0;

export function recordArea(): usize {
  return rec;
}
export function numberArea(): usize {
  return nums;
}

/** Record areas for a new import. */
export function resetRecords(): void {
  rec = alloc((<usize>(OUT_CAP * REC)) << 2);
  nums = alloc((<usize>(OUT_CAP * NUMS)) << 3);
  pending = 0;
  hungry = 1;
  out = 0;
}

/** A new scan over the input buffer at `buffer`. */
export function startRecords(buffer: usize): void {
  base = buffer;
  out = 0;
  hungry = 1;
}

/** The scan stops for want of room for records (and goes on when called again). */
export function full(): void {
  hungry = 0;
}

/** An empty line consumed without a record of its own. */
export function skipLine(): void {
  pending++;
}

/** A record of the bytes `start[0, stop)`, which are `own` lines; `numbers` first (see `setNumbers`). */
export function emit(kind: i32, start: usize, stop: usize, arg: i32, own: i32, extra: i32 = 0): void {
  const r = rec + ((<usize>(out * REC)) << 2);
  store<i32>(r, kind);
  store<i32>(r, <i32>(start - base), 4);
  store<i32>(r, <i32>(stop - base), 8);
  store<i32>(r, arg, 12);
  store<i32>(r, pending, 16);
  store<i32>(r, own, 20);
  store<i32>(r, extra, 24);
  pending = 0;
  out++;
}

/** A record of no line of its own (FRAME, NODE): `start` and `stop` as given. */
export function emitAux(kind: i32, start: i32, stop: i32, arg: i32): void {
  const r = rec + ((<usize>(out * REC)) << 2);
  store<i32>(r, kind);
  store<i32>(r, start, 4);
  store<i32>(r, stop, 8);
  store<i32>(r, arg, 12);
  store<i32>(r, 0, 16);
  store<i32>(r, 0, 20);
  store<i32>(r, 0, 24);
  out++;
}

/** The two numbers of the next record. */
export function setNumbers(a: f64, b: f64): void {
  const at = nums + ((<usize>(out * NUMS)) << 3);
  store<f64>(at, a);
  store<f64>(at, b, 8);
}

/** The offset of `p` in the input buffer, as records give it. */
export function offsetOf(p: usize): i32 {
  return <i32>(p - base);
}
