/**
 * Reading a `.cpuprofile` into its raw arrays as the JSON stream hands them over (`readRaw`):
 * nodes with their frames interned, parent and child links, hit counts, samples and their times.
 * cpuprofile.ts builds the call tree and weighs the samples from them.
 */
import type { FrameTableBuilder } from '../../../model/builders';
import { GrowFloat64, GrowInt32, GrowNumbers } from '../../../model/grow';
import { MAX_WEIGHT, isTime } from '../../../model/types';
import { ImportError } from '../../errors';
import { type NumberPlaces, streamJson } from '../../io/json-stream';
import type { StreamedSamples } from './cpuprofile-samples';
import { IdMap } from './id-map';
import { type V8CallFrame, internV8Frame } from './v8-frames';

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The profile as read, before the call tree is built. */
export interface Raw {
  /** modern form: one entry per node, in file order (typed columns: a big file has a million nodes) */
  ids: GrowNumbers;
  index: IdMap;
  frame: GrowInt32;
  /** the node's `parent` id, NaN when the node gives none */
  parentId: GrowFloat64;
  hitCount: GrowNumbers;
  /** `children` links: node index → child id */
  edgeParent: GrowInt32;
  edgeChild: GrowNumbers;
  duplicateIds: number;
  /** legacy form */
  head?: unknown;
  /** the big arrays, in typed columns (a long capture has tens of millions of samples) */
  samples: GrowNumbers;
  timeDeltas: GrowNumbers;
  timestamps: GrowNumbers;
  startTime?: number;
  endTime?: number;
  urls: Set<string>;
  /** the samples read into the call tree as they arrived (then `samples` and `timeDeltas` stay empty) */
  streamed?: StreamedSamples;
}

/**
 * Starts reading the samples into the call tree, when the file's order allows it (its nodes all
 * read): called at the first element of `samples`; undefined keeps them in `Raw`.
 */
export type OpenSamples = (raw: Raw) => StreamedSamples | undefined;

export const MICROSECONDS_PER_SECOND = 1e6;

/**
 * A value as a message shows it: short, and never by walking a container (a 200,000-character
 * string went whole into a message, and `JSON.stringify` recurses on 100,000 nested arrays).
 */
function preview(v: unknown): string {
  if (Array.isArray(v)) return v.length === 0 ? '[]' : 'an array';
  if (v !== null && typeof v === 'object') return 'an object';
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

function pushAll(column: GrowNumbers, values: Float64Array, count: number): void {
  for (let i = 0; i < count; i++) column.push(values[i]!);
}

function emptyRaw(): Raw {
  return {
    ids: new GrowNumbers(),
    index: new IdMap(),
    frame: new GrowInt32(),
    parentId: new GrowFloat64(),
    hitCount: new GrowNumbers(),
    edgeParent: new GrowInt32(),
    edgeChild: new GrowNumbers(),
    duplicateIds: 0,
    samples: new GrowNumbers(),
    timeDeltas: new GrowNumbers(),
    timestamps: new GrowNumbers(),
    urls: new Set(),
  };
}

/** A frame met before, under its script id and position (see `RawReader.frameOf`). */
class KnownFrame {
  constructor(
    readonly url: string,
    readonly name: string,
    readonly id: number,
  ) {}
}

/** Whether a line or column number is one the frame cache can key on. */
function smallPosition(p: unknown): p is number {
  return typeof p === 'number' && Number.isInteger(p) && p >= -1 && p < 2 ** 21;
}

/** Reads the values of a `.cpuprofile` into `Raw` as the JSON stream hands them over. */
class RawReader {
  readonly raw = emptyRaw();
  // Frames by script id and position, then url and name: a profile names a few thousand frames
  // in each of its nodes, and interning builds a key string each time (a fifth of a big
  // profile's import). The script id (`"scriptId":"65"`, short) and the position are cheap keys;
  // url and name, fresh strings of every parsed node, are only compared, never hashed. The
  // script id only narrows the search: equal url, name and position make the same frame.
  private readonly frameCache = new Map<unknown, Map<number, KnownFrame[]>>();

  constructor(
    private readonly file: string,
    private readonly frames: FrameTableBuilder,
    private readonly openSamples?: OpenSamples,
  ) {}

  /** An element of one of the file's arrays (`key` names the array). */
  element(key: string, v: unknown, offset: number): void {
    const raw = this.raw;
    switch (key) {
      case 'nodes':
        return this.readNode(v, offset);
      case 'samples': {
        const id = this.number(key, v, offset);
        if (raw.streamed === undefined && raw.samples.length === 0 && raw.timeDeltas.length === 0) raw.streamed = this.openSamples?.(raw);
        if (raw.streamed) return raw.streamed.sample(id, offset);
        return void raw.samples.push(id);
      }
      case 'timeDeltas': {
        const d = this.number(key, v, offset);
        if (raw.streamed) return raw.streamed.delta(d);
        return void raw.timeDeltas.push(d);
      }
      case 'timestamps':
        return void raw.timestamps.push(this.number(key, v, offset));
      case '':
        throw this.error(offset, 'not a V8 CPU profile: the file is a JSON array (a trace?), expected an object with "nodes"');
      case 'traceEvents':
        throw this.error(offset, 'not a V8 CPU profile: this is a trace-event file ("traceEvents")');
    }
  }

  /** A run of plain integers of one of the file's arrays (see `JsonStreamHandlers.numbers`). */
  numbers(key: string, values: Float64Array, count: number, places: NumberPlaces): void {
    const raw = this.raw;
    switch (key) {
      case 'samples':
        if (raw.streamed === undefined && raw.samples.length === 0 && raw.timeDeltas.length === 0) raw.streamed = this.openSamples?.(raw);
        if (raw.streamed) return raw.streamed.samples(values, count, places);
        return pushAll(raw.samples, values, count);
      case 'timeDeltas':
        if (raw.streamed) return raw.streamed.deltas(values, count);
        return pushAll(raw.timeDeltas, values, count);
      case 'timestamps':
        return pushAll(raw.timestamps, values, count);
      case 'nodes':
      case '':
      case 'traceEvents':
        // refused at the first number
        return this.element(key, values[0], places.offset(0));
    }
  }

  /** A value of the top-level object other than the arrays. */
  value(key: string, v: unknown): void {
    if (key === 'head') this.raw.head = v;
    else if (key === 'startTime' && isTime(v)) {
      this.raw.startTime = v;
      this.raw.streamed?.lateStart(v);
    } else if (key === 'endTime' && isTime(v)) this.raw.endTime = v;
  }

  private error(offset: number, message: string): ImportError {
    return new ImportError({ file: this.file, offset, message });
  }

  private number(key: string, v: unknown, offset: number): number {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    throw this.error(offset, `"${key}" holds ${preview(v)}, expected a number`);
  }

  private readNode(v: unknown, offset: number): void {
    if (!isObject(v) || typeof v.id !== 'number') throw this.error(offset, 'a node in "nodes" has no numeric "id"');
    if (this.raw.streamed) throw this.error(offset, 'a node comes after the samples (two "nodes" arrays?)');
    const id = v.id;
    const cf = v.callFrame;
    if (!isObject(cf)) throw this.error(offset, `node ${id} has no "callFrame" object`);
    const raw = this.raw;
    if (raw.index.has(id)) {
      raw.duplicateIds++;
      return;
    }
    const at = raw.ids.length;
    raw.index.set(id, at);
    raw.ids.push(id);
    raw.frame.push(this.frameOf(cf as V8CallFrame));
    const parent = v.parent;
    raw.parentId.push(typeof parent === 'number' ? parent : NaN);
    const hits = v.hitCount;
    raw.hitCount.push(typeof hits === 'number' && hits > 0 && hits <= MAX_WEIGHT ? hits : 0);
    const children = v.children;
    if (Array.isArray(children)) {
      for (let i = 0; i < children.length; i++) {
        const c: unknown = children[i];
        if (typeof c !== 'number') continue;
        raw.edgeParent.push(at);
        raw.edgeChild.push(c);
      }
    }
  }

  private frameOf(cf: V8CallFrame & { scriptId?: unknown }): number {
    const line = cf.lineNumber;
    const column = cf.columnNumber;
    const url = typeof cf.url === 'string' ? cf.url : '';
    if (!smallPosition(line) || !smallPosition(column)) {
      if (url !== '') this.raw.urls.add(url);
      return internV8Frame(this.frames, cf, 0);
    }
    const name = typeof cf.functionName === 'string' ? cf.functionName : '';
    const script = typeof cf.scriptId === 'string' || typeof cf.scriptId === 'number' ? cf.scriptId : '';
    let byPosition = this.frameCache.get(script);
    if (byPosition === undefined) this.frameCache.set(script, (byPosition = new Map()));
    const at = (line + 1) * 2 ** 22 + column + 1;
    let list = byPosition.get(at);
    if (list === undefined) byPosition.set(at, (list = []));
    for (let i = 0; i < list.length; i++) {
      const f = list[i]!;
      if (f.url === url && f.name === name) return f.id;
    }
    if (url !== '') this.raw.urls.add(url);
    const id = internV8Frame(this.frames, cf, 0);
    list.push(new KnownFrame(url, name, id));
    return id;
  }
}

/** Reads the whole file into `Raw`, streaming the big arrays. */
export async function readRaw(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  frames: FrameTableBuilder,
  openSamples?: OpenSamples,
  recycle?: (chunk: Uint8Array) => void,
): Promise<Raw> {
  const reader = new RawReader(file, frames, openSamples);
  const result = await streamJson(
    chunks,
    {
      element: (key, v, offset) => reader.element(key, v, offset),
      numbers: (key, values, count, places) => reader.numbers(key, values, count, places),
      // Offsets serve only error messages, which get them from the stream (see `places`).
      places: false,
      value: (key, v) => reader.value(key, v),
    },
    file,
    recycle,
  );
  if (result.truncated) {
    throw new ImportError({
      file,
      offset: result.bytes,
      message:
        'the file ends before the profile is complete (cut off while copying?). V8 writes a .cpuprofile whole, ' +
        'and the end holds the samples and their times, so a cut-off profile would silently lose samples',
    });
  }
  if (result.root !== 'object')
    throw new ImportError({ file, offset: 0, message: 'not a V8 CPU profile: expected a JSON object with "nodes"' });
  return reader.raw;
}
