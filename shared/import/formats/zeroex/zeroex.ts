/**
 * 0x output (https://github.com/davidmarkclements/0x, reference: its lib/ticks-to-tree.js and
 * lib/v8-log-to-ticks.js). 0x runs `node --prof`, turns the V8 log into stacks and renders them;
 * a `<pid>.0x/` folder holds, depending on the options used:
 *
 * - `ticks.json` (`--write-ticks`): one array per tick of V8 code entries, root → leaf:
 *   `[[{"name":"handler /srv/app/server.js:12:3","type":"JS","kind":"Opt",…},{"name":"__write","type":"CPP"}],…]`
 * - `isolate-*-v8.log.json`: `node --prof-process --preprocess` output,
 *   `{"code":[{name,type,kind}…],"functions":[…],"ticks":[{"tm":3716,"vm":6,"s":[code,offset,…]}…]}`
 *   where `s` lists (code index, offset) pairs leaf first and `tm` is microseconds since start;
 * - `flamegraph.html`: the viewer, with 0x's own trees embedded (see ./zeroex-html);
 * - `isolate-*-v8.log` (raw, not read here), `meta.json`.
 *
 * All three readable files give the same stacks: the profile has one sample per tick, frames as
 * V8 named them (tier from `kind`, location split into file, line and column). As 0x does, ticks
 * with no resolvable frame are left out (0x's root value counts only stacks with frames) and so are
 * the frames of 0x's own preload scripts. Only the v8 JSON has tick times; it is therefore the
 * one that fills `Profile.samples`.
 */
import { CallTreeBuilder, FrameTableBuilder, finishProfile } from '../../../model/builders';
import { MAX_WEIGHT, type Profile, type RunMeta, isTime } from '../../../model/types';
import { ImportError } from '../../errors';
import type { ImportContext, Importer } from '../../importer';
import { streamJson } from '../../io/json-stream';
import { type CodeEntry, codeFrame, treeFrame } from './zeroex-frames';
import { type TreeRecord, readHtmlTrees } from './zeroex-html';

type ZeroExFile = 'ticks' | 'v8-json' | 'html';

const FRAME_TYPE = /"type"\s*:\s*"(JS|CPP|CODE|SHARED_LIB)"/;
const TICKS_START = /^\s*\[\s*\[/;
const V8_JSON_START = /^\s*\{\s*"code"\s*:\s*\[/;
// 0x's page template (visualizer/html.js) opens with tachyons' banner in the first <style>:
// `<html>\n    <head>\n      <meta charset="utf-8">\n      <style> /*! TACHYONS v4.12.0 | …`.
// The data itself sits past the first 64 KiB, after the CSS and the viewer bundle.
const HTML_START = /^\s*<html>\s*<head>\s*<meta charset="utf-8">\s*<style>\s*\/\*! TACHYONS/i;
// The raw `--prof` log 0x also leaves in the folder starts `v8-version,11,3,244,8,0,0`.
const RAW_V8_LOG = /^(v8-version|shared-library|code-creation|profiler),/;

function whichFile(head: string): ZeroExFile | undefined {
  if (TICKS_START.test(head)) return FRAME_TYPE.test(head) ? 'ticks' : undefined;
  if (V8_JSON_START.test(head)) {
    // `"ticks"` follows the (long) code array, usually far past the 64 KiB head.
    return FRAME_TYPE.test(head) || /"ticks"\s*:/.test(head) ? 'v8-json' : undefined;
  }
  if (HTML_START.test(head) || head.includes('visualizer({"merged":')) return 'html';
  return undefined;
}

const TICKS_NAME = /^ticks\.json(\.gz)?$/;
const V8_JSON_NAME = /^isolate-.*-v8(\.log)?\.json(\.gz)?$/;
const RAW_LOG_NAME = /^isolate-.*-v8\.log(\.gz)?$/;

/** Interns code entries once, remembering which ones 0x would leave out (-1). */
class FrameCache {
  private readonly byKey = new Map<string, number>();
  constructor(readonly frames: FrameTableBuilder) {}

  id(entry: CodeEntry): number {
    const key = `${entry.type}\u0000${entry.kind ?? ''}\u0000${entry.name}`;
    let id = this.byKey.get(key);
    if (id === undefined) {
      const input = codeFrame(entry);
      id = input ? this.frames.intern(input) : -1;
      this.byKey.set(key, id);
    }
    return id;
  }
}

function isEntry(v: unknown): v is CodeEntry {
  return typeof v === 'object' && v !== null && typeof (v as CodeEntry).name === 'string';
}

interface Parts {
  frames: FrameTableBuilder;
  tree: CallTreeBuilder;
  meta: RunMeta;
}

function noteEmpty(meta: RunMeta, empty: number, total: number): void {
  if (empty > 0) meta.warnings.push(`${empty} of ${total} ticks had no frame V8 could name (or only 0x's own); left out, as 0x does`);
}

/** ticks.json: an array of ticks, each an array of code entries root → leaf. */
async function readTicks(ctx: ImportContext, p: Parts): Promise<void> {
  const cache = new FrameCache(p.frames);
  const ids: number[] = [];
  let ticks = 0;
  let empty = 0;
  const result = await streamJson(
    ctx.source.chunks(),
    {
      element(_key, value, offset) {
        if (!Array.isArray(value))
          throw new ImportError({ file: ctx.file, offset, message: 'expected a tick (an array of frames) in ticks.json' });
        ticks++;
        ids.length = 0;
        for (const f of value) {
          if (!isEntry(f)) continue;
          const id = cache.id(f);
          if (id >= 0) ids.push(id);
        }
        if (ids.length === 0) empty++;
        else p.tree.addStack(ids, 1);
      },
    },
    ctx.file,
  );
  if (result.root !== 'array') throw new ImportError({ file: ctx.file, message: 'expected a 0x ticks.json array' });
  if (result.truncated) p.meta.warnings.push(`the file is cut off after ${ticks} ticks; those were read`);
  noteEmpty(p.meta, empty, ticks);
}

interface V8Tick {
  tm?: number;
  s?: number[];
}

/** `node --prof-process --preprocess` JSON: code entries, then ticks that point into them. */
async function readV8Json(ctx: ImportContext, p: Parts): Promise<void> {
  const cache = new FrameCache(p.frames);
  const code: number[] = []; // frame id per code index; -2 until interned, -1 for a left-out frame
  const entries: (CodeEntry | undefined)[] = [];
  const ids: number[] = [];
  // V8 writes `code` before `ticks`; ticks seen before any code wait until the end.
  const early: V8Tick[] = [];
  let ticks = 0;
  let empty = 0;
  let first = Infinity;
  let last = -Infinity;

  const frameOf = (index: number): number => {
    const known = code[index];
    if (known === undefined) return -1; // -1 in `s`: an address V8 could not attribute
    if (known !== -2) return known;
    const id = cache.id(entries[index]!);
    code[index] = id;
    entries[index] = undefined;
    return id;
  };

  const addTick = (t: V8Tick, offset: number) => {
    const s = t.s;
    if (!Array.isArray(s)) throw new ImportError({ file: ctx.file, offset, message: 'expected a tick with an "s" stack array' });
    ticks++;
    ids.length = 0;
    // Leaf first, as (code index, offset) pairs; the tree wants root first.
    for (let i = s.length - 2; i >= 0; i -= 2) {
      // Only an integer indexes the code list (`"length"` or `"__proto__"` would find a property).
      const index: unknown = s[i];
      const id = Number.isInteger(index) ? frameOf(index as number) : -1;
      if (id >= 0) ids.push(id);
    }
    if (ids.length === 0) {
      empty++;
      return;
    }
    const tm = isTime(t.tm) ? t.tm : NaN;
    if (tm < first) first = tm;
    if (tm > last) last = tm;
    p.tree.addSample(p.tree.addStack(ids, 0), 1, tm);
  };

  const result = await streamJson(
    ctx.source.chunks(),
    {
      element(key, value, offset) {
        if (key === 'code') {
          entries.push(isEntry(value) ? value : undefined);
          code.push(isEntry(value) ? -2 : -1);
        } else if (key === 'ticks') {
          if (typeof value !== 'object' || value === null)
            throw new ImportError({ file: ctx.file, offset, message: 'expected a tick object in "ticks"' });
          if (code.length === 0) early.push(value as V8Tick);
          else addTick(value as V8Tick, offset);
        }
      },
    },
    ctx.file,
  );
  for (const t of early) addTick(t, 0);
  if (result.root !== 'object' || code.length === 0)
    throw new ImportError({ file: ctx.file, message: 'expected `node --prof-process --preprocess` JSON with a "code" array' });
  if (result.truncated) p.meta.warnings.push(`the file is cut off after ${ticks} ticks; those were read`);
  noteEmpty(p.meta, empty, ticks);
  if (Number.isFinite(first)) {
    p.meta.startTime = first;
    p.meta.endTime = last;
    const n = p.tree.sampleCount;
    if (n > 1) p.meta.sampleInterval = (last - first) / (n - 1);
  }
}

/** flamegraph.html: rebuilds the call tree from 0x's unmerged tree (counts in `top`). */
async function readHtml(ctx: ImportContext, p: Parts): Promise<void> {
  const trees = await readHtmlTrees(ctx.source.chunks(), ctx.file);
  const root = trees.unmerged ?? trees.merged!;
  if (!trees.unmerged) p.meta.warnings.push('the page has no unmerged tree; its merged tree leaves out inlinable frames');
  const cache = new Map<string, number>();
  const frameId = (r: TreeRecord): number => {
    // `fn` is the label without the tier marker the unmerged tree's `name` has (`*emit node:events…`).
    const label = r.fn ?? (r.S > 0 ? r.name.replace(/^[~*]/, '') : r.name);
    const key = `${r.S}\u0000${label}`;
    let id = cache.get(key);
    if (id === undefined) {
      const input = treeFrame(label, r.S);
      id = input ? p.frames.intern(input) : -1;
      cache.set(key, id);
    }
    return id;
  };
  // 0x's root is synthetic ("all stacks"; "(root)" for --visualize-cpu-profile) and has no samples
  // of its own; should it have some, they are kept under a frame of its name.
  let tooLarge = 0;
  const count = (top: number) => {
    if (top <= MAX_WEIGHT) return top;
    tooLarge++;
    return 0;
  };
  if (root.top > 0) p.tree.addSelf(p.tree.child(p.tree.root, frameId(root)), count(root.top));
  // Iterative walk: 0x trees are as deep as the deepest stack.
  const recs: TreeRecord[] = [...root.children].reverse();
  const nodes: number[] = recs.map(() => p.tree.root);
  while (recs.length > 0) {
    const r = recs.pop()!;
    const parent = nodes.pop()!;
    const id = frameId(r);
    // A left-out frame (0x's preload scripts) passes its children to its parent.
    const node = id >= 0 ? p.tree.child(parent, id) : parent;
    if (r.top > 0) p.tree.addSelf(node, count(r.top));
    for (let i = r.children.length - 1; i >= 0; i--) {
      recs.push(r.children[i]!);
      nodes.push(node);
    }
  }
  if (tooLarge > 0) p.meta.warnings.push(`${tooLarge} node(s) have a sample count past 2^53; counted as 0`);
}

async function parse(ctx: ImportContext): Promise<Profile> {
  const head = ctx.source.head;
  const kind = whichFile(head);
  if (!kind) {
    const message = RAW_V8_LOG.test(head)
      ? 'this is a raw V8 log (node --prof). Convert it first: `node --prof-process --preprocess ISOLATE.log > ISOLATE.log.json`, or let 0x do it with `0x --visualize-only <folder>`, then open the .json'
      : 'not 0x output: expected ticks.json (`[[{"name":…,"type":"JS"}…]…]`), an isolate-*-v8.log.json (`{"code":[…],"ticks":[…]}`) or a 0x flamegraph.html';
    throw new ImportError({ file: ctx.file, message });
  }
  const p: Parts = {
    frames: new FrameTableBuilder(ctx.budget),
    tree: new CallTreeBuilder(ctx.budget),
    meta: { producer: '0x', warnings: [] },
  };
  if (kind === 'ticks') await readTicks(ctx, p);
  else if (kind === 'v8-json') await readV8Json(ctx, p);
  else await readHtml(ctx, p);
  p.meta.producer =
    kind === 'ticks' ? '0x (ticks.json)' : kind === 'v8-json' ? '0x (node --prof-process --preprocess)' : '0x (flamegraph.html)';
  if (p.tree.nodeCount === 1) throw new ImportError({ file: ctx.file, message: 'the 0x profile holds no samples' });
  return finishProfile({ name: ctx.file, format: '0x', kind: 'sampled', unit: 'samples', ...p });
}

export const zeroExImporter: Importer = {
  id: '0x',
  label: '0x output (<pid>.0x folder, ticks.json, isolate-*-v8.log.json, flamegraph.html)',
  extensions: ['.0x', '.json', '.html'],
  sniff(head) {
    return whichFile(head) !== undefined;
  },
  parse,
  pickFromFolder(names) {
    // A 0x folder is known by the files only 0x writes together.
    const is0x =
      names.some((n) => V8_JSON_NAME.test(n) || RAW_LOG_NAME.test(n)) ||
      (names.includes('meta.json') && names.some((n) => TICKS_NAME.test(n) || n.endsWith('.html'))) ||
      (names.includes('flamegraph.html') && names.some((n) => TICKS_NAME.test(n)));
    if (!is0x) return undefined;
    return (
      names.find((n) => TICKS_NAME.test(n)) ??
      names.find((n) => V8_JSON_NAME.test(n)) ??
      (names.includes('flamegraph.html') ? 'flamegraph.html' : names.find((n) => n.endsWith('.html'))) ??
      // Only the raw log: parse() explains how to convert it.
      names.find((n) => RAW_LOG_NAME.test(n))
    );
  },
};
