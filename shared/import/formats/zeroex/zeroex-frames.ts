/**
 * Frames of 0x output (https://github.com/davidmarkclements/0x), as the three 0x files spell them:
 * V8 code entries `{name, type, kind}` in `ticks.json` and `isolate-*-v8.log.json`, and the labels
 * 0x's `ticks-to-tree` writes into the trees of `flamegraph.html`
 * (`fn [CPP]`, `name file:1:2 [INIT]`, tier in `S`). All three map to the same `FrameInput`s, so
 * a run imported from any of its files collapses to the same stacks.
 */
import { categorize } from '../../../model/categorize';
import type { FrameInput } from '../../../model/builders';
import { Category, Tier } from '../../../model/types';

/** A V8 code entry as `node --prof-process --preprocess` writes it (and 0x copies into ticks.json). */
export interface CodeEntry {
  name: string;
  /** `JS`, `CPP`, `SHARED_LIB` or `CODE` */
  type?: string;
  /** JS: `Unopt` `Sparkplug` `Baseline` `Maglev` `Opt` `Builtin`; CODE: `Builtin` `BytecodeHandler` `RegExp` `Stub`… */
  kind?: string;
}

/** V8's tick processor names a JS function's tier with `kind` (tools/profile.mjs getKindFromState). */
const TIER_BY_KIND: Record<string, Tier> = {
  Unopt: Tier.Interpreted,
  // V8 9.x wrote `Baseline` for what later versions call `Sparkplug`.
  Baseline: Tier.Baseline,
  Sparkplug: Tier.Baseline,
  Maglev: Tier.Maglev,
  Opt: Tier.Optimized,
  Turbofan: Tier.Optimized,
};

// 0x drops the frames of its own preload scripts (lib/ticks-to-tree.js removeInstrumentationFrames),
// matching its install folder, e.g. ` /srv/app/node_modules/0x/lib/preload/no-cluster.js:1:1`.
const PRELOAD = /[\\/]0x[\\/]lib[\\/]preload[\\/]/;

export function isPreloadFrame(name: string): boolean {
  return PRELOAD.test(name);
}

// Where a script reference starts inside `NAME FILE:LINE:COL`: an absolute path, a URL scheme
// (`node:`, `file:`), a Windows drive or an old-style core path (`internal/…`).
const FILE_START = /^(?:[\\/]|[A-Za-z]:[\\/]|[a-z][a-z0-9+.-]*:|internal\/)/;

export interface JsLocation {
  name: string;
  file: string;
  line: number;
  column: number;
}

/**
 * Splits V8's `functionName scriptName:line:column`. Function names may contain spaces
 * (`get pathname node:internal/url:1059:15`) and so may paths, so the split is at the first space
 * followed by something that starts a path, else at the last space. An empty function name leaves
 * a leading space (` node:internal/main/run_main_module:1:1`); an empty script name leaves
 * `_createParamsObject :4:41` (code from `new Function`). Returns undefined without a location
 * (`wasm-to-js:i:i`).
 */
export function splitJsName(text: string): JsLocation | undefined {
  const m = /:(\d+)(?::(\d+))?$/.exec(text);
  if (!m) return undefined;
  const rest = text.slice(0, m.index);
  let cut = -1;
  for (let i = rest.indexOf(' '); i >= 0; i = rest.indexOf(' ', i + 1)) {
    if (FILE_START.test(rest.slice(i + 1))) {
      cut = i;
      break;
    }
  }
  if (cut < 0) cut = rest.lastIndexOf(' ');
  if (cut < 0) return undefined;
  return { name: rest.slice(0, cut), file: rest.slice(cut + 1), line: Number(m[1]), column: m[2] ? Number(m[2]) : 0 };
}

function jsFrame(text: string, tier: Tier): FrameInput {
  const loc = splitJsName(text);
  if (!loc) {
    // JS code without a script location: wasm wrappers (`wasm-to-js:i:i`) and JS builtins.
    const category = /^(wasm|js-to-wasm)/i.test(text) ? Category.Wasm : Category.V8;
    return { name: text, tier, category };
  }
  const frame: FrameInput = { name: loc.name, file: loc.file, line: loc.line, column: loc.column, tier };
  // Code without a script name (eval, `new Function`) is JavaScript all the same.
  if (loc.file === '') frame.category = Category.App;
  return frame;
}

function isDependencyPath(path: string): boolean {
  return path.includes('node_modules/') || path.includes('node_modules\\');
}

function nativeCategory(name: string): Category {
  const c = categorize(name, '');
  return c === Category.Other ? Category.Native : c;
}

/**
 * The frame for a V8 code entry, or undefined for 0x's own preload frames (left out as 0x does).
 * `tier` overrides the entry's `kind` (the HTML trees carry the tier in `S` instead).
 */
export function codeFrame(entry: CodeEntry, tier?: Tier): FrameInput | undefined {
  const name = typeof entry.name === 'string' ? entry.name : String(entry.name ?? '');
  switch (entry.type) {
    case 'JS': {
      if (isPreloadFrame(name)) return undefined;
      // `kind` is the file's text: an own key only ("constructor" must not find Object.prototype's)
      const kind = typeof entry.kind === 'string' && Object.hasOwn(TIER_BY_KIND, entry.kind) ? TIER_BY_KIND[entry.kind]! : Tier.Unknown;
      return jsFrame(name, tier ?? kind);
    }
    case 'CPP': {
      // macOS `nm` output leaks its symbol-type letter into V8's names on old Node:
      // {"name":"t _ssl_write","type":"CPP"} (Node 8.5 --prof-process --preprocess).
      const clean = /^[A-Za-z] \S/.test(name) ? name.slice(2) : name;
      return { name: clean, tier: Tier.Unknown, category: nativeCategory(clean) };
    }
    case 'SHARED_LIB':
      // The name is the library itself (`/usr/lib/x86_64-linux-gnu/libc.so.6`): a tick in a
      // library V8 could not symbolize. It is also the frame's DSO; a native addon under
      // node_modules counts as its package's code.
      return { name, file: name, tier: Tier.Unknown, category: isDependencyPath(name) ? Category.Dependency : Category.Native };
    case 'CODE':
      // Builtins, bytecode handlers, IC stubs; RegExp code is named by its pattern.
      return { name, tier: Tier.Unknown, category: entry.kind === 'RegExp' ? Category.RegExp : Category.V8 };
    case 'WASM':
      return { name, tier: Tier.Unknown, category: Category.Wasm };
    default:
      return { name, tier: Tier.Unknown };
  }
}

/**
 * Tier from 0x's `S` (lib/ticks-to-tree.js): 1 unoptimized, 2 optimized, 3/4 the same but
 * inlinable. 0x adds 2 for "inlinable" and 1 only for `Unopt`/`Baseline`, 2 for `Opt`, nothing for
 * `Sparkplug` or `Maglev`: so a Sparkplug or Maglev frame reads as 0 (unknown here), and an
 * inlinable one as 2, indistinguishable from TurboFan. ticks.json and the v8 JSON keep the real kind.
 */
function tierFromS(s: number): Tier {
  if (s === 1 || s === 3) return Tier.Interpreted;
  if (s === 2 || s === 4) return Tier.Optimized;
  return Tier.Unknown;
}

/**
 * The frame for a node of a 0x tree, from its `fn` (unmerged tree) or `name` (merged tree) and `S`.
 * 0x decorates labels: a `[TYPE]` or `[TYPE:KIND]` suffix for non-JS frames, ` [INIT]` for module
 * loading frames, `(anonymous)` for unnamed functions and `[eval]` for scripts without a name —
 * `(anonymous) [eval]:1:1` is V8's ` :1:1`. The undecorated entry is rebuilt and mapped as above.
 */
export function treeFrame(label: string, s: number): FrameInput | undefined {
  let text = label;
  if (text.endsWith(' [INIT]')) text = text.slice(0, -7);
  if (text.endsWith(' [INLINABLE]')) text = text.slice(0, -12);
  // The unmerged tree's `name` also carries the tier marker; `fn` does not.
  let type = 'JS';
  let kind: string | undefined;
  const m = / \[(CPP|SHARED_LIB|CODE|WASM|JS)(?::(\w+))?\]$/.exec(text);
  if (m) {
    text = text.slice(0, m.index);
    type = m[1]!;
    kind = m[2];
  }
  // 0x marks JS frames without a location `[WASM]`; V8 had called them JS.
  if (type === 'WASM' && !/^(wasm|js-to-wasm)/i.test(text)) type = 'JS';
  if (type === 'JS') {
    text = text.replace(/ \[eval\](?=:\d+:\d+$)/, ' ');
    if (text.startsWith('(anonymous) ')) text = text.slice('(anonymous)'.length);
  }
  const entry: CodeEntry = { name: text, type };
  if (kind !== undefined) entry.kind = kind;
  return codeFrame(entry, type === 'JS' ? tierFromS(s) : Tier.Unknown);
}
