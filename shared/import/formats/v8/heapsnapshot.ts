/**
 * V8 heap snapshots (`.heapsnapshot`), as `v8.writeHeapSnapshot()`, `node --heapsnapshot-signal`,
 * the `heapdump` package and Chrome DevTools' *Save profile* write them
 * (https://v8.dev/docs/heap-snapshot is brief; the layout is declared in the file itself):
 *
 *   {"snapshot":{"meta":{"node_fields":["type","name","id","self_size","edge_count",…],
 *     "node_types":[["hidden","array","string","object",…],"string","number",…],
 *     "edge_fields":["type","name_or_index","to_node"],"edge_types":[["context","element",…],…],
 *     "location_fields":["object_index","script_id","line","column"]},"node_count":87420,…},
 *    "nodes":[9,1,1,0,10,0,0,…],"edges":[…],"locations":[…],"strings":["<dummy>",…]}
 *
 * The bulk is three arrays: `nodes` and `edges` are integers, read straight from the bytes into
 * typed arrays (`streamJson` hands them over a run at a time, no string and no object per
 * node), `strings` becomes one string array. Field positions come from `snapshot.meta`; nothing
 * about the layout is assumed but the field names. The graph is then checked (every edge points
 * at a node, every name at a string) and its dominators and retained sizes computed
 * (../../heap/dominators); the profile's tree is the dominator tree by class (see `HeapGraph`).
 */
import { allocationsProblem, readAllocations } from '../../../heap/allocations';
import { computeDominators } from '../../../heap/dominators';
import { dominatorClassTree } from '../../../heap/class-tree';
import type { HeapGraph, Profile } from '../../../model/types';
import { ImportError } from '../../errors';
import type { Importer } from '../../importer';
import { type JsonStreamHandlers, streamJson } from '../../io/json-stream';

/**
 * Unsigned 32-bit column: every value of `nodes`, `edges` and `locations` fits one. Sized once
 * from the count the file states, so that a column is never copied as it fills (growing by
 * doubling held the old and the new array at once, and the finished one was a third copy: at
 * 1 GB, 0.9 GB more at the peak). A stated count costs no memory until values arrive (the system
 * hands out untouched pages of a big array only as they are written), so a wrong or hostile count
 * costs nothing; where the count is missing, wrong or past what can be asked for, the column
 * grows by half as values come.
 */
class Column {
  data: Uint32Array;
  length = 0;
  constructor(stated: number) {
    this.data = allocate(Number.isInteger(stated) && stated > 0 && stated <= MAX_PREALLOCATE ? stated : 0);
  }
  /** Room for `more` values after `length`: grown by half, or to fit, when short. */
  private room(more: number): void {
    if (this.length + more <= this.data.length) return;
    const next = new Uint32Array(Math.max(1024, this.length + more, Math.ceil(this.data.length * 1.5)));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  push(v: number): void {
    if (this.length === this.data.length) this.room(1);
    this.data[this.length++] = v;
  }
  /** `values[0]` to `values[count - 1]`, each a whole number from 0 to 2^32 - 1. */
  pushMany(values: Float64Array, count: number): void {
    this.room(count);
    this.data.set(values.subarray(0, count), this.length);
    this.length += count;
  }
  finish(): Uint32Array {
    return this.length === this.data.length ? this.data : this.data.slice(0, this.length);
  }
}

/** A column of `count` values, or a small one where the system refuses that much at once. */
function allocate(count: number): Uint32Array {
  try {
    return new Uint32Array(Math.max(1024, count));
  } catch {
    return new Uint32Array(1024);
  }
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

const MAX_U32 = 0xffffffff;
/** Most values a column takes at once on the file's word (4 GiB); past it, it grows as values come. */
const MAX_PREALLOCATE = 2 ** 30;

export function sniffHeapSnapshot(head: string): boolean {
  return /^\s*\{\s*"snapshot"\s*:\s*\{\s*"meta"\s*:/.test(head);
}

export const heapsnapshotImporter: Importer = {
  id: 'heapsnapshot',
  label: 'V8 heap snapshot (.heapsnapshot: v8.writeHeapSnapshot, Chrome DevTools)',
  extensions: ['.heapsnapshot'],
  sniff(head, fileName) {
    if (sniffHeapSnapshot(head)) return true;
    // a name alone says so only when the content has not said otherwise yet: `{"snapshot":` first
    return /\.heapsnapshot(\.gz)?$/i.test(fileName) && /^\s*\{\s*"snapshot"\s*:/.test(head);
  },
  async parse({ file, source }): Promise<Profile> {
    let snapshot: Json | undefined;
    let nodes: Column | undefined;
    let edges: Column | undefined;
    let locations: Column | undefined;
    let functions: Column | undefined;
    let traceTree: unknown;
    const strings: string[] = [];
    const fail = (offset: number | undefined, message: string): never => {
      throw new ImportError(offset === undefined ? { file, message } : { file, offset, message });
    };
    const column = (key: string): Column | undefined => {
      const count = (k: string) => (isObject(snapshot) && typeof snapshot[k] === 'number' ? (snapshot[k] as number) : 0);
      const meta = isObject(snapshot) && isObject(snapshot.meta) ? snapshot.meta : {};
      const width = (k: string) => (Array.isArray(meta[k]) ? (meta[k] as unknown[]).length : 1);
      // the counts the file states size the columns (see `Column`)
      if (key === 'nodes') return (nodes ??= new Column(count('node_count') * width('node_fields')));
      if (key === 'edges') return (edges ??= new Column(count('edge_count') * width('edge_fields')));
      if (key === 'locations') return (locations ??= new Column(0));
      if (key === 'trace_function_infos') return (functions ??= new Column(0));
      return undefined;
    };
    const handlers: JsonStreamHandlers = {
      places: false,
      element(key, v, offset) {
        if (key === 'strings') {
          if (typeof v !== 'string') fail(offset, `"strings" holds ${JSON.stringify(v)?.slice(0, 40)}, expected only strings`);
          strings.push(v as string);
          return;
        }
        const col = column(key);
        if (col === undefined) {
          if (key === '') fail(offset, 'not a V8 heap snapshot: the file is a JSON array, expected an object with "snapshot"');
          return; // samples: not used
        }
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_U32)
          fail(offset, `"${key}" holds ${JSON.stringify(v)?.slice(0, 40)}, expected whole numbers from 0 to ${MAX_U32}`);
        col.push(v as number);
      },
      // runs of whole numbers: one check and one copy per run
      numbers(key, values, count, places) {
        const col = column(key);
        if (col === undefined) {
          // refused at the first number, or not used
          if (key === 'strings' || key === '') handlers.element(key, values[0], places.offset(0), 0);
          return;
        }
        for (let i = 0; i < count; i++) {
          const v = values[i]!;
          if (v < 0 || v > MAX_U32) handlers.element(key, v, places.offset(i), 0);
        }
        col.pushMany(values, count);
      },
      value(key, v) {
        if (key === 'snapshot') snapshot = isObject(v) ? v : fail(undefined, '"snapshot" is not an object');
        if (key === 'trace_tree') traceTree = v;
      },
      // the trace tree nests: one value (allocation stacks are few), read whole
      streams: (key) => key !== 'trace_tree',
    };
    const result = await streamJson(source.chunks(), handlers, file);
    if (result.root !== 'object') fail(0, 'not a V8 heap snapshot: expected a JSON object with "snapshot"');
    if (result.truncated) fail(result.bytes, 'the file ends before the snapshot is complete (cut off while being written or copied?)');
    const graph = checkGraph(file, snapshot, nodes?.finish(), edges?.finish(), strings, locations?.finish());
    const meta = isObject(snapshot!.meta) ? snapshot!.meta : {};
    const allocations = readAllocations(meta, functions?.finish(), traceTree, (message) => fail(undefined, message));
    return buildProfile(file, allocations ? { ...graph, allocations } : graph);
  },
};

/**
 * A heap snapshot's profile from its graph as a workspace file holds it: the graph checked as an
 * import checks it, its dominators, retained sizes and class tree worked out again, so a file
 * cannot hold retained sizes the graph does not give. Throws an `ImportError` naming `file`.
 */
export function heapProfileFromGraph(file: string, name: string, g: Omit<HeapGraph, 'dominator' | 'retained'>): Profile {
  // The meta in the snapshot's own shape: the type names under the `type` field's position.
  const typesAt = (fields: string[], types: string[]) => fields.map((f) => (f === 'type' ? types : []));
  const meta = {
    node_fields: g.nodeFields,
    edge_fields: g.edgeFields,
    node_types: typesAt(g.nodeFields, g.nodeTypes),
    edge_types: typesAt(g.edgeFields, g.edgeTypes),
    location_fields: g.locationFields,
  };
  const graph = checkGraph(file, { meta }, g.nodes, g.edges, g.strings, g.locations);
  if (g.locations.length > 0 && graph.locations.length === 0)
    throw new ImportError({ file, message: `heap locations hold ${g.locations.length} values, not a multiple of the location fields` });
  const problem = g.allocations && allocationsProblem(g.allocations);
  if (problem) throw new ImportError({ file, message: problem });
  return buildProfile(name, g.allocations ? { ...graph, allocations: g.allocations } : graph);
}

function field(file: string, fields: string[], name: string, where: string): number {
  const i = fields.indexOf(name);
  if (i < 0) throw new ImportError({ file, message: `snapshot.meta.${where} has no "${name}" field (it lists ${fields.join(', ')})` });
  return i;
}

/** The graph with its layout read from the meta, every reference checked; dominators not yet. */
function checkGraph(
  file: string,
  snapshot: Json | undefined,
  nodes: Uint32Array | undefined,
  edges: Uint32Array | undefined,
  strings: string[],
  locations: Uint32Array | undefined,
): Omit<HeapGraph, 'dominator' | 'retained'> {
  const fail = (message: string): never => {
    throw new ImportError({ file, message });
  };
  if (snapshot === undefined) fail('not a V8 heap snapshot: no "snapshot" with its "meta"');
  const meta = snapshot!.meta;
  if (!isObject(meta)) return fail('"snapshot.meta" is missing or not an object');
  const nodeFields = meta.node_fields;
  const edgeFields = meta.edge_fields;
  if (!isStrings(nodeFields) || nodeFields.length === 0) return fail('snapshot.meta.node_fields is not a list of field names');
  if (!isStrings(edgeFields) || edgeFields.length === 0) return fail('snapshot.meta.edge_fields is not a list of field names');
  const nodeTypeField = field(file, nodeFields, 'type', 'node_fields');
  const edgeTypeField = field(file, edgeFields, 'type', 'edge_fields');
  const nodeTypes = Array.isArray(meta.node_types) ? meta.node_types[nodeTypeField] : undefined;
  const edgeTypes = Array.isArray(meta.edge_types) ? meta.edge_types[edgeTypeField] : undefined;
  if (!isStrings(nodeTypes)) return fail('snapshot.meta.node_types does not list the names of node types');
  if (!isStrings(edgeTypes)) return fail('snapshot.meta.edge_types does not list the names of edge types');
  const nameField = field(file, nodeFields, 'name', 'node_fields');
  field(file, nodeFields, 'id', 'node_fields');
  field(file, nodeFields, 'self_size', 'node_fields');
  const edgeCountField = field(file, nodeFields, 'edge_count', 'node_fields');
  const edgeNameField = field(file, edgeFields, 'name_or_index', 'edge_fields');
  const toNodeField = field(file, edgeFields, 'to_node', 'edge_fields');
  if (nodes === undefined) return fail('the snapshot has no "nodes"');
  edges ??= new Uint32Array(0);
  const NF = nodeFields.length;
  const EF = edgeFields.length;
  if (nodes.length % NF !== 0) fail(`"nodes" holds ${nodes.length} numbers, not a multiple of the ${NF} node fields`);
  if (edges.length % EF !== 0) fail(`"edges" holds ${edges.length} numbers, not a multiple of the ${EF} edge fields`);
  const nodeCount = nodes.length / NF;
  const edgeCount = edges.length / EF;
  if (nodeCount === 0) fail('the snapshot has no nodes (not even its root)');
  // Edge names are string indices except for element and hidden edges, whose name is an index.
  const numbered = new Uint8Array(edgeTypes.length);
  for (const t of ['element', 'hidden']) if (edgeTypes.indexOf(t) >= 0) numbered[edgeTypes.indexOf(t)] = 1;
  let e = 0;
  for (let i = 0; i < nodeCount; i++) {
    const at = i * NF;
    if (nodes[at + nodeTypeField]! >= nodeTypes.length)
      fail(`node ${i} has type ${nodes[at + nodeTypeField]}, past the ${nodeTypes.length} types in the meta`);
    if (nodes[at + nameField]! >= strings.length)
      fail(`node ${i} is named by string ${nodes[at + nameField]}, past the ${strings.length} strings`);
    const end = e + nodes[at + edgeCountField]!;
    if (end > edgeCount) fail(`node ${i}'s edges run past the ${edgeCount} edges in "edges"`);
    for (; e < end; e++) {
      const to = edges[e * EF + toNodeField]!;
      const type = edges[e * EF + edgeTypeField]!;
      if (to % NF !== 0 || to / NF >= nodeCount) fail(`edge ${e} (of node ${i}) points at ${to}, which is not the start of a node`);
      if (type >= edgeTypes.length) fail(`edge ${e} (of node ${i}) has type ${type}, past the ${edgeTypes.length} types in the meta`);
      if (numbered[type] === 0 && edges[e * EF + edgeNameField]! >= strings.length)
        fail(`edge ${e} (of node ${i}) is named by string ${edges[e * EF + edgeNameField]}, past the ${strings.length} strings`);
    }
  }
  if (e !== edgeCount) fail(`the nodes' edge counts add up to ${e}, but "edges" holds ${edgeCount}`);
  const locationFields = isStrings(meta.location_fields) ? meta.location_fields : [];
  return {
    nodeFields,
    nodeTypes,
    edgeFields,
    edgeTypes,
    nodeCount,
    edgeCount,
    nodes,
    edges,
    strings,
    locationFields,
    locations: locationFields.length > 0 && locations && locations.length % locationFields.length === 0 ? locations : new Uint32Array(0),
  };
}

function buildProfile(file: string, g: Omit<HeapGraph, 'dominator' | 'retained'>): Profile {
  const { dominator, retained } = computeDominators(g.nodes, g.edges, {
    nodeCount: g.nodeCount,
    nodeFieldCount: g.nodeFields.length,
    selfSizeField: g.nodeFields.indexOf('self_size'),
    edgeCountField: g.nodeFields.indexOf('edge_count'),
    edgeFieldCount: g.edgeFields.length,
    edgeTypeField: g.edgeFields.indexOf('type'),
    toNodeField: g.edgeFields.indexOf('to_node'),
    weakType: g.edgeTypes.indexOf('weak'),
    shortcutType: g.edgeTypes.indexOf('shortcut'),
  });
  const heap: HeapGraph = { ...g, dominator, retained };
  const { frames, tree } = dominatorClassTree(heap);
  return {
    version: 1,
    name: file,
    format: 'heapsnapshot',
    kind: 'heap',
    unit: 'bytes',
    frames,
    tree,
    heap,
    meta: { producer: 'V8 heap snapshot', warnings: [] },
  };
}
