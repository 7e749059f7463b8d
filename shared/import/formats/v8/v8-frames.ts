/**
 * What the V8 CPU profile and V8 sampling heap profile importers share: turning a V8 call frame
 * into a `FrameInput`, and telling the two JSON shapes apart from the first bytes of a file.
 *
 * Call frames come in two numberings (reference: the DevTools protocol, `Runtime.CallFrame`,
 * https://chromedevtools.github.io/devtools-protocol/tot/Runtime/#type-CallFrame):
 * - today's `callFrame` objects (`.cpuprofile` `nodes`, `.heapprofile` `head`) count lines and
 *   columns from 0 and write -1 when there is no position:
 *   `{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}`
 * - the legacy `head` tree (protocol 1.1, the `v8-profiler` addons) puts the fields on the node
 *   itself and counts from 1, with 0 for "no position" (V8's `CpuProfileNode::GetLineNumber()`):
 *   `{"functionName":"(root)","url":"","lineNumber":0,"callUID":304,…}`
 * Both become 1-based lines and columns, 0 when unknown, as `FrameTable` wants.
 */
import type { FrameInput, FrameTableBuilder } from '../../../model/builders';

/** The position fields of a V8 call frame, in either numbering. */
export interface V8CallFrame {
  functionName?: unknown;
  url?: unknown;
  lineNumber?: unknown;
  columnNumber?: unknown;
}

/** Whether positions count from 0 (`callFrame` objects) or from 1 (legacy `head` nodes). */
export type LineBase = 0 | 1;

function position(v: unknown, base: LineBase): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) return 0;
  const oneBased = Math.trunc(v) + (base === 0 ? 1 : 0);
  return oneBased > 0 ? oneBased : 0;
}

/**
 * V8's pseudo-frames: `(root)` is the tree's top, `(program)` native code V8 cannot attribute,
 * `(idle)` waiting for work, `(garbage collector)` GC. They carry no script, and some producers
 * still write a position for them (legacy `"functionName":"(idle)","url":"","lineNumber":0`), so
 * they are kept as bare names.
 */
function isPseudoFrame(name: string, url: string): boolean {
  return url === '' && name.length > 2 && name.startsWith('(') && name.endsWith(')');
}

/**
 * The frame a V8 call frame stands for, or undefined for `(root)`, which the call tree's own
 * root replaces. An empty `functionName` (top-level script code, anonymous functions) becomes
 * `(anonymous)`. A leading V8 tier marker, should a producer write one, is read into the tier by
 * the frame builder.
 */
export function v8FrameInput(cf: V8CallFrame, base: LineBase): FrameInput | undefined {
  const name = typeof cf.functionName === 'string' ? cf.functionName : '';
  const url = typeof cf.url === 'string' ? cf.url : '';
  if (name === '(root)' && url === '') return undefined;
  if (isPseudoFrame(name, url)) return { name };
  return {
    name: name === '' ? '(anonymous)' : name,
    file: url,
    line: position(cf.lineNumber, base),
    column: position(cf.columnNumber, base),
  };
}

/** Interns a V8 call frame into a frame table; -1 stands for `(root)`. */
export function internV8Frame(frames: FrameTableBuilder, cf: V8CallFrame, base: LineBase): number {
  const input = v8FrameInput(cf, base);
  return input === undefined ? -1 : frames.intern(input);
}

/** Producer guess from the scripts a profile names (`node:internal/…` only exists in Node.js). */
export function producerFromUrls(urls: Iterable<string>, node: string, browser: string, either: string): string {
  let sawNode = false;
  let sawBrowser = false;
  for (const u of urls) {
    if (u.startsWith('node:') || u.startsWith('internal/') || u.startsWith('/') || u.startsWith('file://')) sawNode = true;
    else if (/^(https?|chrome-extension|extensions|devtools|chrome):/.test(u)) sawBrowser = true;
  }
  if (sawNode && !sawBrowser) return node;
  if (sawBrowser && !sawNode) return browser;
  return either;
}

/** The keys of a JSON object's top level, as far as `head` (the start of the text) shows them. */
export function topLevelKeys(head: string): { root: '{' | '[' | ''; keys: Set<string> } {
  const keys = new Set<string>();
  let i = 0;
  while (i < head.length && /\s/.test(head.charAt(i))) i++;
  const first = head.charAt(i);
  if (first === '[') return { root: '[', keys };
  if (first !== '{') return { root: '', keys };
  let depth = 0;
  let expectKey = false;
  for (; i < head.length; i++) {
    const c = head.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // Find the string's end; only top-level keys are kept.
      let j = i + 1;
      while (j < head.length && head.charCodeAt(j) !== 0x22) j += head.charCodeAt(j) === 0x5c ? 2 : 1;
      if (j >= head.length) break;
      if (depth === 1 && expectKey) {
        try {
          keys.add(JSON.parse(head.slice(i, j + 1)) as string);
        } catch {
          // a malformed key says nothing either way
        }
        expectKey = false;
      }
      i = j;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth === 1) expectKey = true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
    else if (c === 0x2c /* , */ && depth === 1) expectKey = true;
  }
  return { root: '{', keys };
}

/** What a file's first bytes say about the V8 JSON shapes. */
export type V8Shape =
  /** `{"nodes":[{"id":1,"callFrame":{…}…}],"samples":[…],"timeDeltas":[…]}` */
  | 'cpuprofile'
  /** `{"head":{"functionName":…,"hitCount":…,"children":[…]},"samples":[…],"timestamps":[…]}` */
  | 'cpuprofile-legacy'
  /** `{"head":{"callFrame":{…},"selfSize":…,"children":[…]},"samples":[…]}` */
  | 'heapprofile'
  /** a JSON object that could be either, but the head does not show enough to tell */
  | 'undecided'
  /** something else: a trace, a JSON array, 0x output, not JSON */
  | 'other';

/** Keys a V8 profile may have before its decisive `nodes` or `head` appears. */
const PREAMBLE_KEYS = new Set(['startTime', 'endTime', 'typeId', 'uid', 'title', '$schema']);

export function v8Shape(head: string): V8Shape {
  const { root, keys } = topLevelKeys(head);
  if (root !== '{') return 'other';
  // Chrome and Node trace files carry CPU profiles inside `ProfileChunk` events, with the same
  // `"nodes":[{"callFrame":…` text: the top-level key is what tells them apart.
  if (keys.has('traceEvents')) return 'other';
  if (keys.has('nodes')) return /"callFrame"\s*:/.test(head) && !/"selfSize"\s*:/.test(head) ? 'cpuprofile' : 'other';
  if (keys.has('timeDeltas')) return 'cpuprofile';
  if (keys.has('head')) {
    if (/"selfSize"\s*:/.test(head)) return 'heapprofile';
    if (/"hitCount"\s*:/.test(head) || keys.has('timestamps')) return 'cpuprofile-legacy';
    return 'undecided';
  }
  for (const k of keys) if (!PREAMBLE_KEYS.has(k) && k !== 'samples') return 'other';
  return 'undecided';
}
