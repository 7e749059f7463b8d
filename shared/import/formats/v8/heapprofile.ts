/**
 * V8 sampling heap profiles (`.heapprofile`), as `node --heap-prof` and the Chrome DevTools
 * Memory panel ("Allocation sampling") write them — the DevTools protocol's
 * `HeapProfiler.SamplingHeapProfile`
 * (https://chromedevtools.github.io/devtools-protocol/tot/HeapProfiler/#type-SamplingHeapProfile):
 *
 *   {"head":{"callFrame":{"functionName":"(root)",…},"selfSize":0,"id":1,"children":[…]},
 *    "samples":[{"size":526848,"nodeId":220,"ordinal":11},…]}
 *
 * The allocation tree is the profile: a node's weight is its `selfSize`, the bytes sampled as
 * allocated there and still alive when the profile was taken (unit 'bytes', kind 'allocations').
 * `samples` (individual sampled allocations, in newer files) only repeat what
 * `selfSize` sums up and carry no time, so they are skipped as they stream past. The 2018 files
 * have neither `id` nor `samples`. The nested `head` arrives from `streamJson` as one value and is
 * walked with an explicit stack: allocation stacks can be deeper than the JS call stack allows.
 */
import { CallTreeBuilder, FrameTableBuilder, finishProfile } from '../../../model/builders';
import { MAX_WEIGHT, type Profile } from '../../../model/types';
import { ImportError } from '../../errors';
import type { Importer } from '../../importer';
import { streamJson } from '../../io/json-stream';
import { type V8CallFrame, internV8Frame, producerFromUrls, v8Shape } from './v8-frames';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export const heapprofileImporter: Importer = {
  id: 'heapprofile',
  label: 'V8 heap profile (.heapprofile: node --heap-prof, Chrome DevTools)',
  extensions: ['.heapprofile'],
  sniff(head, fileName) {
    const shape = v8Shape(head);
    if (shape === 'heapprofile') return true;
    return shape === 'undecided' && /\.heapprofile(\.gz)?$/i.test(fileName);
  },
  async parse({ file, source, budget }): Promise<Profile> {
    let head: unknown;
    const result = await streamJson(
      source.chunks(),
      {
        element(key, _v, offset) {
          if (key === '')
            throw new ImportError({
              file,
              offset,
              message: 'not a V8 heap profile: the file is a JSON array (a trace?), expected an object with "head"',
            });
          if (key === 'traceEvents')
            throw new ImportError({ file, offset, message: 'not a V8 heap profile: this is a trace-event file ("traceEvents")' });
        },
        value(key, v) {
          if (key === 'head') head = v;
        },
      },
      file,
    );
    if (result.truncated) {
      throw new ImportError({
        file,
        offset: result.bytes,
        message: 'the file ends before the profile is complete (cut off while copying?); the allocation tree is incomplete',
      });
    }
    if (result.root !== 'object')
      throw new ImportError({ file, offset: 0, message: 'not a V8 heap profile: expected a JSON object with "head"' });
    if (head === undefined) throw new ImportError({ file, message: 'not a V8 heap profile: no "head" allocation tree' });
    if (!isObject(head)) throw new ImportError({ file, message: 'not a V8 heap profile: "head" is not a node object' });

    const frames = new FrameTableBuilder(budget);
    const tree = new CallTreeBuilder(budget);
    const warnings: string[] = [];
    const urls = new Set<string>();
    let badSizes = 0;
    const stack: { node: unknown; at: number }[] = [{ node: head, at: tree.root }];
    while (stack.length > 0) {
      const { node, at } = stack.pop()!;
      if (!isObject(node)) continue;
      // Today's nodes nest a 0-based `callFrame`; the oldest DevTools files put 1-based
      // `functionName`/`url`/`lineNumber` on the node itself.
      const modern = isObject(node.callFrame);
      const cf = (modern ? node.callFrame : node) as V8CallFrame;
      const f = internV8Frame(frames, cf, modern ? 0 : 1);
      if (typeof cf.url === 'string' && cf.url !== '') urls.add(cf.url);
      const here = f >= 0 ? tree.child(at, f) : at;
      const size = node.selfSize;
      if (typeof size === 'number' && size >= 0 && size <= MAX_WEIGHT) {
        if (size > 0) tree.addSelf(here, size);
      } else if (size !== undefined) badSizes++;
      const children = node.children;
      if (Array.isArray(children)) for (let c = children.length - 1; c >= 0; c--) stack.push({ node: children[c], at: here });
    }
    if (badSizes > 0) warnings.push(`${badSizes} node(s) have a "selfSize" that is not a byte count; they were counted as 0`);

    return finishProfile({
      name: file,
      format: 'heapprofile',
      kind: 'allocations',
      unit: 'bytes',
      frames,
      tree,
      meta: {
        producer: producerFromUrls(urls, 'node --heap-prof', 'Chrome DevTools', 'node --heap-prof or Chrome DevTools'),
        warnings,
      },
    });
  },
};
