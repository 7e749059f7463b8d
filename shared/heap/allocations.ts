/**
 * Allocation stacks of a heap snapshot taken with `--track-heap-objects`: the trace tree V8
 * writes (`trace_tree`: `[id, function_info_index, count, size, [children…]]`, children the same
 * five fields each, nested) with the functions it names (`trace_function_infos`), read into
 * columns; and the allocation flamegraph: each stack with the bytes and count of the objects it
 * allocated that are still alive in the snapshot (by each node's `trace_node_id`).
 */
import { CallTreeBuilder, FrameTableBuilder, finishProfile } from '../model/builders';
import type { HeapAllocations, HeapGraph, Profile } from '../model/types';
import { heapFields } from './class-tree';

type Json = Record<string, unknown>;
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const TREE_FIELDS = ['id', 'function_info_index', 'count', 'size', 'children'];
const whole = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/**
 * The allocation stacks of a snapshot from its meta, its `trace_function_infos` (read as a
 * column) and its `trace_tree` (one JSON value); undefined when it has none. `fail` is called
 * with what is wrong (and does not return).
 */
export function readAllocations(
  meta: Json,
  functions: Uint32Array | undefined,
  tree: unknown,
  fail: (m: string) => never,
): HeapAllocations | undefined {
  if (!Array.isArray(tree) || tree.length === 0) return undefined;
  const functionFields = meta.trace_function_info_fields;
  const nodeFields = meta.trace_node_fields;
  if (!isStrings(functionFields) || functionFields.length === 0)
    return fail('the snapshot has a "trace_tree" but no trace_function_info_fields in its meta');
  if (!isStrings(nodeFields) || nodeFields.join() !== TREE_FIELDS.join())
    return fail(`snapshot.meta.trace_node_fields is ${JSON.stringify(nodeFields)}, expected ${JSON.stringify(TREE_FIELDS)}`);
  const fns = functions ?? new Uint32Array(0);
  const FF = functionFields.length;
  if (fns.length % FF !== 0) return fail(`"trace_function_infos" holds ${fns.length} numbers, not a multiple of the ${FF} fields`);
  const id: number[] = [];
  const parent: number[] = [];
  const fn: number[] = [];
  const count: number[] = [];
  const size: number[] = [];
  // a loop over (list, position, parent) frames, not recursion: allocation stacks can be deep
  const stack: { list: unknown[]; at: number; parent: number }[] = [{ list: tree, at: 0, parent: -1 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.at >= top.list.length) {
      stack.pop();
      continue;
    }
    const [i, f, c, s, children] = top.list.slice(top.at, top.at + 5);
    top.at += 5;
    if (!whole(i) || !whole(f) || !whole(c) || !whole(s) || !Array.isArray(children))
      return fail(`trace tree node ${id.length} is not five fields [id, function, count, size, [children]]`);
    if (f >= fns.length / FF)
      return fail(`trace tree node ${i} names function ${f}, past the ${fns.length / FF} in "trace_function_infos"`);
    const here = id.push(i) - 1;
    parent.push(top.parent);
    fn.push(f);
    count.push(c);
    size.push(s);
    stack.push({ list: children, at: 0, parent: here });
  }
  return {
    functionFields,
    functions: fns,
    traceId: Float64Array.from(id),
    traceParent: Int32Array.from(parent),
    traceFunction: Uint32Array.from(fn),
    traceCount: Float64Array.from(count),
    traceSize: Float64Array.from(size),
  };
}

/**
 * What is wrong with allocation stacks read from elsewhere (a workspace file), or undefined:
 * every column as long as the tree, each parent before its child, each function in the table.
 */
export function allocationsProblem(a: HeapAllocations): string | undefined {
  const n = a.traceId.length;
  const FF = a.functionFields.length;
  if (FF === 0 || a.functions.length % FF !== 0) return "the allocation stacks' functions do not fill their fields";
  if ([a.traceParent, a.traceFunction, a.traceCount, a.traceSize].some((c) => c.length !== n))
    return "the trace tree's columns differ in length";
  for (let t = 0; t < n; t++) {
    const p = a.traceParent[t]!;
    if (t === 0 ? p !== -1 : p < 0 || p >= t) return `trace node ${t} has parent ${p}, not a node before it`;
    if (a.traceFunction[t]! >= a.functions.length / FF) return `trace node ${t} names function ${a.traceFunction[t]}, past the table`;
  }
  return undefined;
}

/** Live objects by trace node: their count and bytes; and those whose trace node is not in the tree. */
export function liveByStack(g: HeapGraph): { count: Float64Array; size: Float64Array; unknown: number } {
  const a = g.allocations!;
  const index = new Map<number, number>();
  for (let t = 0; t < a.traceId.length; t++) index.set(a.traceId[t]!, t);
  const count = new Float64Array(a.traceId.length);
  const size = new Float64Array(a.traceId.length);
  const NF = g.nodeFields.length;
  const traceField = g.nodeFields.indexOf('trace_node_id');
  const f = heapFields(g);
  let unknown = 0;
  if (traceField < 0) return { count, size, unknown };
  for (let i = 0; i < g.nodeCount; i++) {
    const id = g.nodes[i * NF + traceField]!;
    if (id === 0) continue;
    const t = index.get(id);
    if (t === undefined) {
      unknown++;
      continue;
    }
    count[t]!++;
    size[t]! += f.selfSize(i);
  }
  return { count, size, unknown };
}

/**
 * The allocation flamegraph of a snapshot with allocation stacks: a profile whose call tree is
 * the trace tree (its root the tree's root), each node's self the bytes of the live objects it
 * allocated; undefined when the snapshot has none.
 */
export function allocationProfile(g: HeapGraph, name: string): Profile | undefined {
  const a = g.allocations;
  if (!a) return undefined;
  const FF = a.functionFields.length;
  const [nameF, scriptF, lineF, columnF] = ['name', 'script_name', 'line', 'column'].map((x) => a.functionFields.indexOf(x)) as number[];
  const strings = g.strings;
  const frames = new FrameTableBuilder();
  const frameOf = new Map<number, number>();
  const frame = (fi: number): number => {
    let fr = frameOf.get(fi);
    if (fr === undefined) {
      const at = (k: number | undefined) => (k !== undefined && k >= 0 ? a.functions[fi * FF + k]! : 0);
      const fname = nameF! >= 0 ? strings[at(nameF)] : undefined;
      const file = scriptF! >= 0 ? strings[at(scriptF)] : undefined;
      fr = frames.intern({ name: fname || '(anonymous)', file: file || undefined, line: at(lineF), column: at(columnF) });
      frameOf.set(fi, fr);
    }
    return fr;
  };
  const { size, unknown } = liveByStack(g);
  const tree = new CallTreeBuilder();
  const at = new Int32Array(a.traceId.length);
  for (let t = 0; t < a.traceId.length; t++) {
    const p = a.traceParent[t]!;
    at[t] = p < 0 ? tree.root : tree.child(at[p]!, frame(a.traceFunction[t]!));
    if (size[t]! > 0) tree.addSelf(at[t]!, size[t]!);
  }
  const warnings = unknown > 0 ? [`${unknown} live object(s) name an allocation stack the trace tree lacks; they are left out`] : [];
  return finishProfile({
    name,
    format: 'heapsnapshot',
    kind: 'allocations',
    unit: 'bytes',
    frames,
    tree,
    meta: { producer: 'V8 heap snapshot, allocation stacks (--track-heap-objects)', warnings },
  });
}
