// What this machine can do at best with a file of the same size, measured in its own process so
// that the import and the limit run in the same conditions (page cache warm, fresh heap):
//
//   limit-runner.mjs json FILE PIECES.json   JSON.parse of the file's text (only the parse is
//                                            timed); a file larger than one V8 string is parsed
//                                            piece by piece, each piece a valid JSON text cut
//                                            from the file at an element boundary
//   limit-runner.mjs lines FILE              a bare line split: read the file in 64 KiB pieces,
//                                            decode each, cut at '\n' into strings, the
//                                            fastest way we know
//
// Prints one JSON line: { ms, bytes, pieces }.
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';

function readRange(fd, from, to) {
  const buf = Buffer.allocUnsafe(to - from);
  let done = 0;
  while (done < buf.length) done += readSync(fd, buf, done, buf.length - done, from + done);
  return buf;
}

function jsonLimit(file, piecesFile) {
  const pieces = JSON.parse(readFileSync(piecesFile, 'utf8'));
  const fd = openSync(file, 'r');
  let ms = 0;
  let bytes = 0;
  let values = 0;
  for (const [i, p] of pieces.entries()) {
    // One flat string, so that JSON.parse does not first have to join pieces.
    const text = Buffer.concat([Buffer.from(p.prefix), readRange(fd, p.from, p.to), Buffer.from(p.suffix)]).toString('utf8');
    bytes += p.to - p.from;
    // The piece before is garbage by now: collected before the clock starts, not while it runs.
    // (None is forced before the first piece: none is forced before the import either.)
    if (i > 0) globalThis.gc?.();
    const t0 = performance.now();
    const v = JSON.parse(text);
    ms += performance.now() - t0;
    values += Object.keys(v).length;
  }
  closeSync(fd);
  return { ms, bytes, pieces: pieces.length, values };
}

/** Bytes of `b` that end before a UTF-8 sequence cut off at its end. */
function completeUtf8(b) {
  for (let back = 1; back <= Math.min(3, b.length); back++) {
    const c = b[b.length - back];
    if ((c & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return need > back ? b.length - back : b.length;
  }
  return b.length;
}

const PIECE = 64 * 1024;

function lineLimit(file, end = Infinity) {
  // Each 64 KiB piece read synchronously into memory used again and again (fresh memory would
  // cost a page fault every 4 KiB), and decoded whole (an incomplete last character held back
  // for the next one): the fastest reading and decoding Node offers. (Reading 1 MiB pieces ahead
  // on Node's I/O threads, as this did before, was as fast at best and slower on most runs.)
  // Node 20's streaming decode gives two-byte strings, slower to search; a string over 128 KiB
  // is made in fresh memory, paid for in page faults (a 1 MiB piece made this split 40% slower).
  const decoder = new TextDecoder('utf-8');
  const size = Math.min(end + 1, statSync(file).size);
  const fd = openSync(file, 'r');
  const piece = Buffer.allocUnsafeSlow(PIECE);
  let held = new Uint8Array(0);
  let carry = '';
  let lines = 0;
  let chars = 0;
  let bytes = 0;
  const t0 = performance.now();
  for (let n = readSync(fd, piece, 0, Math.min(PIECE, size), 0); n > 0; n = readSync(fd, piece, 0, Math.min(PIECE, size - bytes), bytes)) {
    const chunk = piece.subarray(0, n);
    bytes += n;
    // Searched in the decoded chunk itself, the straddling line joined apart: searching a joined
    // (cons) string costs V8 a runtime call per search (see shared/import/io/lines.ts).
    let bytesIn = chunk;
    if (held.length > 0) bytesIn = Buffer.concat([held, chunk]);
    const whole = completeUtf8(bytesIn);
    // (a copy: the piece is read into again)
    held = Uint8Array.from(bytesIn.subarray(whole));
    const text = decoder.decode(bytesIn.subarray(0, whole));
    let start = 0;
    if (carry !== '') {
      const nl = text.indexOf('\n');
      if (nl < 0) {
        carry += text;
        continue;
      }
      chars += (carry + text.slice(0, nl)).length;
      lines++;
      start = nl + 1;
    }
    for (let nl = text.indexOf('\n', start); nl >= 0; nl = text.indexOf('\n', start)) {
      // The line must exist as a string, as it does for a parser.
      chars += text.slice(start, nl).length;
      lines++;
      start = nl + 1;
    }
    carry = text.slice(start);
  }
  closeSync(fd);
  return { ms: performance.now() - t0, bytes, lines, chars, pieces: 1 };
}

const [mode, file, pieces] = process.argv.slice(2);
// The first 64 KiB once, untimed, as the import runner does (the code runs once before it is timed).
if (mode !== 'json') lineLimit(file, 64 * 1024 - 1);
else JSON.parse('[{"warm":[1,"up"]}]');
// and a moment for the engine to finish what the warm-up left it to do, as the import runner has
await new Promise((resolve) => setTimeout(resolve, 50));
const result = mode === 'json' ? jsonLimit(file, pieces) : lineLimit(file);
process.stdout.write(`${JSON.stringify(result)}\n`);
