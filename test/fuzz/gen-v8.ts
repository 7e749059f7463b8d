/**
 * Structured generators for the V8 JSON profiles: `.cpuprofile` (modern `nodes` + `samples` +
 * `timeDeltas`, and the legacy nested `head` with `timestamps`) and `.heapprofile` (nested `head`
 * with `selfSize`). Ids are drawn from a small range so that they collide, point at each other,
 * form parent cycles and point nowhere; numbers are often huge, negative, -0 or not numbers.
 * The 100,000-deep cases are written as text directly: `JSON.stringify` itself recurses.
 */
import fc from 'fast-check';
import { anyName, anyUrl, indexLike, numberish, someNumber, toJson } from './values';

type Obj = Record<string, unknown>;

/** Object keys in a random order (parsers must not depend on the order V8 writes). */
function shuffled(o: Obj, order: number[]): Obj {
  const keys = Object.keys(o);
  const out: Obj = {};
  const taken = new Set<number>();
  for (const r of order) {
    if (keys.length === taken.size) break;
    let k = r % keys.length;
    while (taken.has(k)) k = (k + 1) % keys.length;
    taken.add(k);
    out[keys[k]!] = o[keys[k]!];
  }
  for (let k = 0; k < keys.length; k++) if (!taken.has(k)) out[keys[k]!] = o[keys[k]!];
  return out;
}

const callFrameArb: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record(
      {
        functionName: fc.oneof({ weight: 6, arbitrary: anyName }, { weight: 1, arbitrary: numberish }),
        scriptId: fc.oneof(fc.constant('0'), fc.constant('12'), fc.integer({ min: 0, max: 9 })),
        url: fc.oneof({ weight: 6, arbitrary: anyUrl }, { weight: 1, arbitrary: numberish }),
        lineNumber: numberish,
        columnNumber: numberish,
      },
      { requiredKeys: ['functionName', 'url'] },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 'x', 3, [], {}) },
);

const modernNodeArb = (n: number) =>
  fc.record(
    {
      id: fc.oneof({ weight: 12, arbitrary: indexLike(n) }, { weight: 1, arbitrary: numberish }),
      callFrame: callFrameArb,
      hitCount: numberish,
      children: fc.oneof(
        {
          weight: 6,
          arbitrary: fc.array(fc.oneof({ weight: 8, arbitrary: indexLike(n) }, { weight: 1, arbitrary: numberish }), { maxLength: 4 }),
        },
        { weight: 1, arbitrary: numberish },
      ),
      parent: fc.oneof({ weight: 4, arbitrary: indexLike(n) }, { weight: 1, arbitrary: numberish }),
      positionTicks: fc.constant([{ line: 1, ticks: 1 }]),
    },
    { requiredKeys: ['id', 'callFrame'] },
  );

/** A modern `.cpuprofile`: nodes linked by `children` and/or `parent`, samples, time deltas. */
export const modernCpuprofile: fc.Arbitrary<string> = fc.integer({ min: 0, max: 24 }).chain((n) =>
  fc
    .record(
      {
        nodes: fc.array(modernNodeArb(n + 1), { minLength: n, maxLength: n }),
        startTime: numberish,
        endTime: numberish,
        samples: fc.array(fc.oneof({ weight: 12, arbitrary: indexLike(n + 1) }, { weight: 1, arbitrary: numberish }), { maxLength: 60 }),
        timeDeltas: fc.array(fc.oneof({ weight: 8, arbitrary: fc.integer({ min: -50, max: 2000 }) }, { weight: 2, arbitrary: numberish }), {
          maxLength: 64,
        }),
        $schema: fc.constant('x'),
        title: anyName,
      },
      { requiredKeys: ['nodes'] },
    )
    .chain((p) => fc.array(fc.nat(), { minLength: 7, maxLength: 7 }).map((order) => toJson(shuffled(p as Obj, order)))),
);

interface TreeShape {
  /** parent index of node i (< i), -1 for the first */
  parents: number[];
}

/** A tree of `n` nodes as parent indices, each parent earlier than its child. */
const treeShapeArb = (maxNodes: number): fc.Arbitrary<TreeShape> =>
  fc.array(fc.nat(), { maxLength: maxNodes }).map((r) => ({ parents: [-1, ...r.map((x, i) => x % (i + 1))] }));

/** Builds nested `head` objects from a shape and per-node fields, without recursion. */
function nest(shape: TreeShape, fields: (i: number) => Obj, childrenKey = 'children'): Obj {
  const nodes = shape.parents.map((_, i) => ({ ...fields(i), [childrenKey]: [] as Obj[] }));
  for (let i = 1; i < nodes.length; i++) (nodes[shape.parents[i]!]![childrenKey] as Obj[]).push(nodes[i]!);
  return nodes[0]!;
}

/** A legacy `.cpuprofile`: nested `head` with the call frame's fields on each node, `timestamps`. */
export const legacyCpuprofile: fc.Arbitrary<string> = treeShapeArb(20).chain((shape) => {
  const n = shape.parents.length;
  return fc
    .record({
      node: fc.array(
        fc.record(
          {
            functionName: anyName,
            url: anyUrl,
            lineNumber: numberish,
            columnNumber: numberish,
            hitCount: numberish,
            id: fc.oneof({ weight: 8, arbitrary: indexLike(n) }, { weight: 1, arbitrary: numberish }),
            callUID: someNumber,
          },
          { requiredKeys: ['functionName'] },
        ),
        { minLength: n, maxLength: n },
      ),
      startTime: numberish,
      endTime: numberish,
      samples: fc.array(fc.oneof({ weight: 8, arbitrary: indexLike(n) }, { weight: 1, arbitrary: numberish }), { maxLength: 40 }),
      timestamps: fc.array(numberish, { maxLength: 44 }),
      junkChildren: fc.boolean(),
    })
    .map((r) => {
      const head = nest(shape, (i) => r.node[i]!);
      if (r.junkChildren) (head as Obj).children = 'not an array';
      return toJson({ head, startTime: r.startTime, endTime: r.endTime, samples: r.samples, timestamps: r.timestamps });
    });
});

/** A `.heapprofile`: nested `head` of call frames with `selfSize`, optional `samples`. */
export const heapprofile: fc.Arbitrary<string> = treeShapeArb(24).chain((shape) => {
  const n = shape.parents.length;
  return fc
    .record({
      node: fc.array(
        fc.record(
          {
            callFrame: callFrameArb,
            selfSize: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 1 << 20 }) }, { weight: 3, arbitrary: numberish }),
            id: indexLike(n),
            // the oldest files: 1-based fields on the node itself
            functionName: anyName,
            url: anyUrl,
            lineNumber: numberish,
          },
          { requiredKeys: ['selfSize'] },
        ),
        { minLength: n, maxLength: n },
      ),
      samples: fc.array(fc.record({ size: numberish, nodeId: indexLike(n), ordinal: numberish }), { maxLength: 10 }),
      withSamples: fc.boolean(),
    })
    .map((r) => {
      const head = nest(shape, (i) => r.node[i]!);
      return toJson(r.withSamples ? { head, samples: r.samples } : { head });
    });
});

// ---------------------------------------------------------------------------------------------
// 100,000-deep cases, as text.

export interface DeepOptions {
  depth: number;
  /** leave the file cut off somewhere in the middle */
  cut: boolean;
  /** a variation specific to the generator (cycles, broken links, weights) */
  variant: number;
}

export const deepOptionsArb: fc.Arbitrary<DeepOptions> = fc.record({
  depth: fc.constantFrom(100_000, 100_000, 50_000, 1_000),
  cut: fc.boolean(),
  variant: fc.nat({ max: 6 }),
});

function cutText(s: string, o: DeepOptions): string {
  return o.cut ? s.slice(0, Math.floor(s.length * 0.6)) : s;
}

/**
 * A modern `.cpuprofile` whose nodes form one chain `depth` long (flat in the file, deep in the
 * tree); variants add a parent cycle at the end, a dangling parent, or link by `parent` only.
 */
export function deepModernCpuprofile(o: DeepOptions): string {
  const n = o.depth;
  const parts: string[] = [];
  for (let i = 1; i <= n; i++) {
    const child = i < n ? `[${i + 1}]` : o.variant === 1 ? '[1]' : '[]';
    const parent = o.variant === 2 ? `,"parent":${i === 1 ? n : i - 1}` : o.variant === 3 && i === n ? `,"parent":${n + 7}` : '';
    const children = o.variant === 2 ? '' : `,"children":${child}`;
    parts.push(
      `{"id":${i},"callFrame":{"functionName":"f${i % 97}","scriptId":"1","url":"/app/x.js","lineNumber":${i},"columnNumber":1},"hitCount":1${children}${parent}}`,
    );
  }
  const samples = [n, 1, Math.floor(n / 2), n + 3, n];
  return cutText(`{"nodes":[${parts.join(',')}],"startTime":0,"endTime":10,"samples":[${samples}],"timeDeltas":[1,1,1,-5,1]}`, o);
}

/** A nested `head` chain `depth` deep, written without recursion: legacy `.cpuprofile` or `.heapprofile`. */
export function deepHead(kind: 'cpuprofile' | 'heapprofile', o: DeepOptions): string {
  const n = o.depth;
  const open: string[] = [];
  for (let i = 1; i <= n; i++) {
    const size = o.variant === 4 ? '1e308' : String(i % 5);
    open.push(
      kind === 'heapprofile'
        ? `{"callFrame":{"functionName":"f${i % 89}","scriptId":"1","url":"/app/x.js","lineNumber":${i},"columnNumber":0},"selfSize":${size},"id":${i},"children":[`
        : `{"functionName":"f${i % 89}","url":"/app/x.js","lineNumber":${i},"hitCount":${size},"id":${i},"children":[`,
    );
  }
  const head = `${open.join('')}${']}'.repeat(n)}`;
  const tail =
    kind === 'heapprofile'
      ? `,"samples":[{"size":1,"nodeId":${n},"ordinal":1}]`
      : `,"samples":[${n},1,${n + 1}],"timestamps":[1,2,3],"startTime":0,"endTime":1`;
  return cutText(`{"head":${head}${tail}}`, o);
}
