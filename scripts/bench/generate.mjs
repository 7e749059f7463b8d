// Big benchmark inputs made from the real sample runs in fixtures/samples (a Fastify server with
// dd-trace): each sample is repeated end to end until the file reaches the wanted size, the way a
// longer capture of the same server would look — later copies are shifted in time and get their
// own ids, so that the importers pair and order events exactly as in a real long file. Files are
// written in pieces of a few MB (never one big string). For JSON files the generator also notes
// where the file can be cut into valid JSON texts of at most PIECE_BYTES, so that the JSON.parse
// limit can be measured on files larger than V8's longest string.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { syntheticFolded } from './synthetic.mjs';

const SAMPLES = new URL('../../fixtures/samples/ddtrace/', import.meta.url);
/** Largest text handed to JSON.parse in one go (V8 strings end at ~512 MB; leave room). */
export const PIECE_BYTES = 256 * 1024 * 1024;
const FLUSH_BYTES = 8 * 1024 * 1024;

function sample(name) {
  const bytes = readFileSync(new URL(name, SAMPLES));
  return (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** Appends strings to a file, buffered, and counts bytes. */
export class Writer {
  constructor(path) {
    this.fd = openSync(path, 'w');
    this.parts = [];
    this.pending = 0;
    this.bytes = 0;
  }
  write(s) {
    const n = Buffer.byteLength(s);
    this.parts.push(s);
    this.pending += n;
    this.bytes += n;
    if (this.pending >= FLUSH_BYTES) this.flush();
  }
  flush() {
    if (this.parts.length > 0) writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.pending = 0;
  }
  close() {
    this.flush();
    closeSync(this.fd);
  }
}

/**
 * Cuts a JSON file into valid texts: `prefix + bytes[from, to) + suffix`. `open` starts a piece
 * at the current offset; `cut` ends one just before a separating comma.
 */
export class Pieces {
  /** `head` opens the array the elements go into (`{"nodes":[`), written here. */
  constructor(w, head, limit = PIECE_BYTES) {
    this.w = w;
    this.limit = limit;
    this.head = head;
    this.list = [];
    this.current = { from: 0, prefix: '' };
    this.start = 0;
    this.count = 0;
    w.write(head);
  }
  open(from, prefix) {
    this.current = { from, prefix };
  }
  close(to, suffix) {
    this.list.push({ ...this.current, to, suffix });
    this.current = undefined;
  }
  /** Writes an element of the array, first ending the piece there when it would pass PIECE_BYTES. */
  element(s) {
    const w = this.w;
    if (this.count > 0) {
      if (w.bytes + s.length + 2 - this.start > this.limit) {
        this.close(w.bytes, ']}');
        w.write(',');
        this.start = w.bytes;
        this.open(w.bytes, this.head);
      } else w.write(',');
    }
    w.write(s);
    this.count++;
  }
  /** Writes `text` (which ends one array and opens the next) and goes on in that array, `head` opening it in a new piece. */
  nextArray(text, head) {
    this.w.write(text);
    this.head = head;
    this.count = 0;
  }
}

/** perf script text: sample blocks repeated, timestamps moved on by the capture's length each copy. */
export function generatePerf(path, target) {
  const text = sample('perf.F999.script.txt.gz');
  const blocks = text.split(/\n\n+/).filter((b) => b.trim() !== '');
  // `node  6855  3314.846058:    1001001 cpu-clock:pppH: ` — the time column is what changes.
  const TIME = /^(\S.*?\s)(\d+)\.(\d{6}):/;
  const parsed = blocks.map((b) => {
    const nl = b.indexOf('\n');
    const header = nl < 0 ? b : b.slice(0, nl);
    const m = TIME.exec(header);
    if (!m) throw new Error(`unexpected perf header: ${header}`);
    return { before: m[1], us: Number(m[2]) * 1e6 + Number(m[3]), after: header.slice(m[0].length - 1) + (nl < 0 ? '' : b.slice(nl)) };
  });
  const first = parsed[0].us;
  const span = parsed[parsed.length - 1].us - first + 1001;
  const w = new Writer(path);
  for (let copy = 0; w.bytes < target; copy++) {
    for (const p of parsed) {
      const us = p.us + copy * span;
      w.write(`${p.before}${Math.floor(us / 1e6)}.${String(us % 1e6).padStart(6, '0')}${p.after}\n\n`);
      if (w.bytes >= target) break;
    }
  }
  w.close();
  return { path, bytes: w.bytes, kind: 'text' };
}

/**
 * Node trace-event JSON (`{"traceEvents":[…]}`, one line, as Node writes it): the events repeated,
 * `ts` moved on by the trace's length and async ids made unique per copy.
 */
export function generateTrace(path, target) {
  const events = JSON.parse(sample('node_trace.1.log.gz')).traceEvents;
  let lo = Infinity;
  let hi = -Infinity;
  for (const e of events) {
    if (e.ph === 'M') continue;
    lo = Math.min(lo, e.ts);
    hi = Math.max(hi, e.ts + (e.dur || 0));
  }
  const span = hi - lo + 1000;
  const ts0 = events.map((e) => e.ts);
  const id0 = events.map((e) => (typeof e.id === 'string' ? Number(e.id) : undefined));
  const w = new Writer(path);
  const pieces = new Pieces(w, '{"traceEvents":[');
  for (let copy = 0; w.bytes < target; copy++) {
    for (let i = 0; i < events.length && w.bytes < target; i++) {
      const e = events[i];
      e.ts = ts0[i] + copy * span;
      // ids are per process; a copy's spans must not pair with another copy's
      if (id0[i] !== undefined) e.id = `0x${(id0[i] + copy * 2 ** 40).toString(16)}`;
      pieces.element(JSON.stringify(e));
    }
  }
  w.write(']}');
  pieces.close(w.bytes, '');
  w.close();
  return { path, bytes: w.bytes, kind: 'json', events: pieces.count, pieces: pieces.list };
}

/**
 * `.cpuprofile` as `node --cpu-prof` writes it: the profile repeated, each copy's nodes renumbered
 * (its `(root)` merges with the others' in the call tree) and its samples following the previous
 * copy's in time.
 */
export function generateCpuprofile(path, target) {
  const p = JSON.parse(sample('CPU.20261121.233052.6494.0.001.cpuprofile'));
  let maxId = 0;
  for (const n of p.nodes) maxId = Math.max(maxId, n.id);
  const nodesOf = (copy) => {
    const off = copy * maxId;
    return p.nodes
      .map((n) => JSON.stringify({ ...n, id: n.id + off, ...(n.children ? { children: n.children.map((c) => c + off) } : {}) }))
      .join(',');
  };
  const samplesOf = (copy) => p.samples.map((s) => s + copy * maxId).join(',');
  const deltas = p.timeDeltas.join(',');
  const perCopy = nodesOf(1).length + samplesOf(1).length + deltas.length + 3;
  const copies = Math.max(1, Math.round(target / perCopy));
  const duration = p.endTime - p.startTime;
  const w = new Writer(path);
  const pieces = new Pieces(w, '{"nodes":[');
  for (let c = 0; c < copies; c++) pieces.element(nodesOf(c));
  w.write(`],"startTime":${p.startTime},"endTime":${p.startTime + copies * duration},"samples":[`);
  for (let c = 0; c < copies; c++) w.write((c > 0 ? ',' : '') + samplesOf(c));
  w.write('],"timeDeltas":[');
  for (let c = 0; c < copies; c++) w.write((c > 0 ? ',' : '') + deltas);
  w.write(']}');
  pieces.close(w.bytes, '');
  w.close();
  return { path, bytes: w.bytes, kind: 'json', nodes: copies * p.nodes.length, samples: copies * p.samples.length, pieces: pieces.list };
}

/**
 * A long `.cpuprofile` capture: the run's own call tree (`node --cpu-prof` writes one tree for the
 * whole capture) with its samples and their intervals repeated until the file holds `samples`
 * samples (~10 bytes each: 10 M samples make a ~100 MB file). `run` is 'ddtrace' or 'baseline'.
 */
export function generateLongCpuprofile(path, samples, run = 'ddtrace') {
  const file = run === 'baseline' ? 'CPU.20261121.233005.6118.0.001.cpuprofile' : 'CPU.20261121.233052.6494.0.001.cpuprofile';
  const p = JSON.parse(readFileSync(new URL(`../../fixtures/samples/${run}/${file}`, import.meta.url), 'utf8'));
  const n = p.samples.length;
  const interval = Math.round((p.endTime - p.startTime) / n);
  const w = new Writer(path);
  w.write(
    `{"nodes":${JSON.stringify(p.nodes)},"startTime":${p.startTime},"endTime":${p.startTime + Math.ceil(samples / n) * (p.endTime - p.startTime)},"samples":[`,
  );
  const ids = p.samples.join(',');
  for (let done = 0; done < samples; done += n) {
    const left = samples - done;
    w.write((done > 0 ? ',' : '') + (left >= n ? ids : p.samples.slice(0, left).join(',')));
  }
  w.write('],"timeDeltas":[');
  // later copies follow the previous one by one interval, not by the capture's start offset
  const deltas = p.timeDeltas.join(',');
  const later = [interval, ...p.timeDeltas.slice(1)].join(',');
  for (let done = 0; done < samples; done += n) {
    const left = samples - done;
    const all = done === 0 ? deltas : later;
    w.write((done > 0 ? ',' : '') + (left >= n ? all : all.split(',').slice(0, left).join(',')));
  }
  w.write(']}');
  w.close();
  return { path, bytes: w.bytes, kind: 'json', nodes: p.nodes.length, samples };
}

/**
 * Folded stacks: `folded` (what `flamelens collapse` prints for the perf sample, one line per
 * distinct stack) repeated; flamegraph.pl and Flamelens add up repeated lines.
 */
export function generateFolded(path, target, folded) {
  const w = new Writer(path);
  const text = folded.endsWith('\n') ? folded : `${folded}\n`;
  const lines = text.split('\n').filter((l) => l !== '');
  if (lines.length === 0) throw new Error('generateFolded: the folded sample is empty');
  while (w.bytes < target) {
    for (const l of lines) {
      w.write(`${l}\n`);
      if (w.bytes >= target) break;
    }
  }
  w.close();
  return { path, bytes: w.bytes, kind: 'text' };
}

/**
 * Folded stacks as a collapser writes them (`stackcollapse-perf.pl`, `flamelens collapse`): each
 * stack once, sorted, here of a synthetic server profile's call tree (./synthetic.mjs) with
 * about as many nodes as make `target` bytes. No line comes again, so the importer walks every
 * one down its call tree.
 */
export function generateCollapsedFolded(path, target) {
  // ~64 bytes a node in these files
  const text = syntheticFolded(Math.round(target / 64));
  const merged = new Map();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const at = line.lastIndexOf(' ');
    const stack = line.slice(0, at);
    merged.set(stack, (merged.get(stack) ?? 0) + Number(line.slice(at + 1)));
  }
  const w = new Writer(path);
  for (const stack of [...merged.keys()].sort()) w.write(`${stack} ${merged.get(stack)}\n`);
  w.close();
  return { path, bytes: w.bytes, kind: 'text' };
}

export const GENERATORS = {
  'perf script': { file: 'perf.script.txt', make: generatePerf },
  folded: { file: 'stacks.folded', make: generateFolded },
  cpuprofile: { file: 'big.cpuprofile', make: generateCpuprofile },
  'trace JSON': { file: 'node_trace.big.log', make: generateTrace },
};
