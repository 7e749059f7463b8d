/**
 * A `perf script` frame line cut into its columns (address, symbol, dso) where it is written,
 * without copying it; perf-script.ts reads the samples these lines make up.
 */
import { isSpace, skipSpace } from './perf-header';

function isWord(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** Where the parts of a frame line are: `line.slice(sym, dso - 2)` is the symbol, `line.slice(dso, close)` the dso. */
export interface FrameLine {
  sym: number;
  dso: number;
  close: number;
  /** text after the dso column, or a `)` inside it: a damaged line */
  damaged: boolean;
}

/**
 * `\t    7f4d74061181 JS:^EventEmitter.init node:events:347:29+0x481 (/tmp/perf-6394.map)`:
 * an address, the symbol, and the last ` (dso)` whose parentheses hold no blank. Symbols may
 * contain ` (` themselves (`arrayOopDesc::base(BasicType) const (/…/libjvm.so)`), and a missing
 * symbol leaves two blanks (`7f1e2215d058  (/lib/x86_64-linux-gnu/libc-2.15.so)`), which the
 * reference turns into a frame named " ". Fills `out` (one object reused for every line).
 */
export function readFrame(line: string, from: number, out: FrameLine): boolean {
  const i = skipSpace(line, from);
  let j = i;
  while (j < line.length && isWord(line.charCodeAt(j))) j++;
  if (j === i) return false;
  const k = skipSpace(line, j);
  for (let p = line.lastIndexOf(' (', line.length - 2); p >= j; p = line.lastIndexOf(' (', p - 1)) {
    let e = p + 2;
    while (e < line.length && !isSpace(line.charCodeAt(e))) e++;
    // The last `)` of this candidate's own text, looked for there only: a search of the whole
    // line for every ` (` made a line of 100,000 ` (` take seconds.
    let close = e - 1;
    while (close >= p + 2 && line.charCodeAt(close) !== 41 /* ) */) close--;
    if (close < p + 2) continue;
    out.sym = k < p ? k : p - 1;
    if (out.sym < j) return false;
    out.dso = p + 2;
    out.close = close;
    out.damaged = skipSpace(line, close + 1) < line.length || line.indexOf(')', p + 2) < close;
    return true;
  }
  return false;
}
