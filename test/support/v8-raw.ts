/**
 * Test helper: V8 CPU samples read straight from a file's JSON, with none of the importers' code,
 * so that tests can work out figures independently. Reads `.cpuprofile` files and trace-event
 * files (`Profile` + `ProfileChunk`), gzipped or not. Node-only; used by tests alone.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export interface RawNode {
  parent: number | undefined;
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

/** One V8 profile: its samples in the order the file has them, with their absolute times (µs). */
export interface RawProfile {
  pid: string;
  tid: string;
  /** the trace's profile id ('' for a .cpuprofile) */
  id: string;
  /** the thread's `thread_name` metadata ('' when none) */
  threadName: string;
  nodes: Map<number, RawNode>;
  ids: number[];
  times: number[];
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function readJson(path: string): Json {
  const bytes = readFileSync(path);
  const text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
  return JSON.parse(text);
}

function addNodes(nodes: Map<number, RawNode>, list: Json[] | undefined): void {
  for (const n of list ?? []) {
    const cf = n.callFrame ?? {};
    const known = nodes.get(n.id);
    nodes.set(n.id, {
      parent: n.parent ?? known?.parent,
      functionName: cf.functionName ?? '',
      url: cf.url ?? '',
      lineNumber: cf.lineNumber ?? -1,
      columnNumber: cf.columnNumber ?? -1,
    });
    for (const c of n.children ?? []) {
      const child = nodes.get(c);
      if (child) child.parent = n.id;
      else nodes.set(c, { parent: n.id, functionName: '', url: '', lineNumber: -1, columnNumber: -1 });
    }
  }
}

/** Every V8 profile in the file that has samples, in the order their `Profile` events come. */
export function readV8Profiles(path: string): RawProfile[] {
  const json = readJson(path);
  if (Array.isArray(json.nodes)) {
    const p: RawProfile = { pid: '', tid: '', id: '', threadName: '', nodes: new Map(), ids: json.samples, times: [] };
    addNodes(p.nodes, json.nodes);
    let t = json.startTime as number;
    for (const d of json.timeDeltas as number[]) p.times.push((t += d));
    return [p];
  }
  const events: Json[] = Array.isArray(json) ? json : json.traceEvents;
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  const profiles = new Map<string, RawProfile & { clock: number }>();
  for (const e of events) {
    if (e.name !== 'Profile') continue;
    const key = `${e.pid}:${e.id}`;
    profiles.set(key, {
      pid: String(e.pid),
      tid: String(e.tid),
      id: String(e.id),
      threadName: names.get(`${e.pid}:${e.tid}`) ?? '',
      nodes: new Map(),
      ids: [],
      times: [],
      clock: e.args.data.startTime,
    });
  }
  for (const e of events) {
    if (e.name !== 'ProfileChunk') continue;
    const p = profiles.get(`${e.pid}:${e.id}`);
    const data = e.args?.data;
    if (!p || !data) continue;
    addNodes(p.nodes, data.cpuProfile?.nodes);
    const samples: number[] = data.cpuProfile?.samples ?? [];
    const deltas: number[] = data.timeDeltas ?? [];
    samples.forEach((id, i) => {
      p.clock += deltas[i] ?? 0;
      p.ids.push(id);
      p.times.push(p.clock);
    });
  }
  return [...profiles.values()].filter((p) => p.ids.length > 0);
}

/** The leaf function of a sample, as `name file:line:column` (1-based, 0 when unknown; V8's pseudo-frames by name). */
export function rawFunctionKey(n: RawNode): string {
  const pseudo = n.url === '' && /^\(.+\)$/.test(n.functionName);
  if (pseudo) return `${n.functionName} :0:0`;
  const pos = (v: number) => (v >= 0 ? v + 1 : 0);
  return `${n.functionName || '(anonymous)'} ${n.url}:${pos(n.lineNumber)}:${pos(n.columnNumber)}`;
}

/**
 * A profile's samples weighed as DevTools weighs them, from the raw samples: in time order
 * (stably), each lasting until the next, the last one the mean interval. Returns the weight of
 * every sample in the file's order.
 */
export function rawDurations(p: RawProfile): number[] {
  const n = p.times.length;
  const order = p.times.map((_, i) => i).sort((a, b) => p.times[a]! - p.times[b]! || a - b);
  const mean = (p.times[order[n - 1]!]! - p.times[order[0]!]!) / (n - 1);
  const out = new Array<number>(n);
  order.forEach((i, k) => (out[i] = k + 1 < n ? p.times[order[k + 1]!]! - p.times[i]! : mean));
  return out;
}

/** Whether a node or one of its ancestors satisfies `test`. */
export function rawOnStack(p: RawProfile, id: number, test: (n: RawNode) => boolean): boolean {
  for (let at: number | undefined = id; at !== undefined; at = p.nodes.get(at)?.parent) if (test(p.nodes.get(at)!)) return true;
  return false;
}
