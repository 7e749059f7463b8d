import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CallTreeBuilder, FrameTableBuilder, finishProfile } from './builders';
import { GrowFloat64, GrowInt32 } from './grow';
import { Category, CATEGORY_NAMES, Tier } from './types';
import { timeColumn } from './sample-times';

describe('FrameTableBuilder', () => {
  it('works out category, package and key from name, file and dso, and keeps a category it is given', () => {
    const b = new FrameTableBuilder();
    const app = b.intern({ name: '*handler', file: '/srv/app/server.js', line: 12, column: 3 });
    const dep = b.intern({ name: 'wrap', file: '/srv/app/node_modules/@dynatrace/oneagent/lib/x.js', line: 1 });
    const kernel = b.intern({ name: 'do_syscall_64', tier: Tier.Unknown, dso: '[kernel.kallsyms]', file: '[kernel.kallsyms]' });
    const idle = b.intern({ name: 'swapper', tier: Tier.Unknown, category: Category.Idle });
    // the same frame again is the same id, a given category makes another frame
    expect(b.intern({ name: '*handler', file: '/srv/app/server.js', line: 12, column: 3 })).toBe(app);
    const other = b.intern({ name: '*handler', file: '/srv/app/server.js', line: 12, column: 3, category: Category.Other });
    expect(other).not.toBe(app);

    const t = b.finish();
    expect(t.length).toBe(5);
    const cat = (id: number) => CATEGORY_NAMES[t.category[id]!];
    expect([cat(app), cat(dep), cat(kernel), cat(idle), cat(other)]).toEqual(['app', 'dependency', 'kernel', 'idle/program', 'other']);
    expect(t.tier[app]).toBe(Tier.Optimized);
    expect(t.name[app]).toBe('handler');
    expect(t.pkg[dep]).toBe('@dynatrace/oneagent');
    expect(t.pkg[app]).toBe('');
    expect(t.key[app]).toBe('handler\tapp/server.js');
    expect(t.key[dep]).toBe('wrap\tnode_modules/@dynatrace/oneagent/lib/x.js');
  });

  it('makes an empty table', () => {
    const t = new FrameTableBuilder().finish();
    expect(t.length).toBe(0);
    expect(t.category.length).toBe(0);
    expect(t.line.length).toBe(0);
  });
});

describe('GrowInt32 and GrowFloat64', () => {
  it('start empty and grow past their first capacity, keeping every value', () => {
    const ints = new GrowInt32(4);
    const floats = new GrowFloat64(4);
    expect(ints.data.length).toBe(0);
    for (let i = 0; i < 1000; i++) {
      expect(ints.push(i * 3)).toBe(i);
      expect(floats.push(i / 2)).toBe(i);
    }
    const a = ints.finish();
    const f = floats.finish();
    expect(a.length).toBe(1000);
    expect(f.length).toBe(1000);
    expect(Array.from(a).every((v, i) => v === i * 3)).toBe(true);
    expect(Array.from(f).every((v, i) => v === i / 2)).toBe(true);
  });
});

describe('CallTreeBuilder', () => {
  it('finds every child again after its index has grown many times', () => {
    const tree = new CallTreeBuilder();
    const made = new Map<string, number>();
    // wide and deep: 200 children of the root, each with a chain of 50
    for (let f = 0; f < 200; f++) {
      let node = tree.child(tree.root, f);
      made.set(`0/${f}`, node);
      for (let d = 1; d <= 50; d++) {
        const parent = node;
        node = tree.child(parent, 1000 + d);
        made.set(`${parent}/${1000 + d}`, node);
      }
      tree.addSelf(node, 1);
    }
    expect(tree.nodeCount).toBe(1 + 200 * 51);
    for (const [k, id] of made) {
      const [parent, frame] = k.split('/').map(Number);
      expect(tree.child(parent!, frame!)).toBe(id);
    }
    expect(tree.nodeCount).toBe(1 + 200 * 51);
    const p = finishProfile({
      name: 't',
      format: 'folded',
      kind: 'aggregated',
      unit: 'samples',
      frames: new FrameTableBuilder(),
      tree,
      meta: { producer: 'test', warnings: [] },
    });
    expect(p.tree.total[0]).toBe(200);
  });
});

describe('CallTreeBuilder.finish', () => {
  /** The pre-order tree made the plain way: lists of children in the order they were made, walked depth first. */
  function reference(parentOf: number[], frameOf: number[], selfOf: number[]) {
    const kids: number[][] = parentOf.map(() => []);
    for (let i = 1; i < parentOf.length; i++) kids[parentOf[i]!]!.push(i);
    const order: number[] = [];
    const walk = (v: number): void => {
      order.push(v);
      for (const c of kids[v]!) walk(c);
    };
    walk(0);
    const at = new Map(order.map((v, i) => [v, i]));
    const total = (v: number): number => kids[v]!.reduceRight((sum, c) => sum + total(c), 0) + selfOf[v]!;
    const depth = (v: number): number => (v === 0 ? 0 : depth(parentOf[v]!) + 1);
    const size = (v: number): number => 1 + kids[v]!.reduce((sum, c) => sum + size(c), 0);
    return {
      parent: order.map((v) => (v === 0 ? -1 : at.get(parentOf[v]!)!)),
      frame: order.map((v) => frameOf[v]!),
      self: order.map((v) => selfOf[v]!),
      total: order.map(total),
      depth: order.map(depth),
      end: order.map((v, i) => i + size(v)),
    };
  }

  it('orders nodes made in any order into pre-order, with depths, ends and totals', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat(5), fc.constantFrom(0, 1, 0.1, 2.5)), { maxLength: 300 }), (steps) => {
        const b = new CallTreeBuilder();
        const parentOf = [-1];
        const frameOf = [-1];
        const selfOf = [0];
        for (const [pick, frame, w] of steps) {
          const parent = pick % b.nodeCount;
          const c = b.child(parent, frame);
          if (c === parentOf.length) {
            parentOf.push(parent);
            frameOf.push(frame);
            selfOf.push(0);
          }
          b.addSelf(c, w);
          selfOf[c]! += w;
        }
        const { tree } = b.finish();
        const want = reference(parentOf, frameOf, selfOf);
        expect([...tree.parent]).toEqual(want.parent);
        expect([...tree.frame]).toEqual(want.frame);
        expect([...tree.self]).toEqual(want.self);
        expect([...tree.total]).toEqual(want.total);
        expect([...tree.depth]).toEqual(want.depth);
        expect([...tree.end]).toEqual(want.end);
      }),
    );
  });

  it('finds the children newChild made, once child is asked again', () => {
    const b = new CallTreeBuilder();
    const made: [number, number, number][] = [];
    // made without the index (each a frame of its own: surely new), past several of its sizes
    for (let i = 0; i < 500; i++) {
      const parent = i === 0 ? b.root : made[(i * 7) % made.length]![2];
      made.push([parent, i, b.newChild(parent, i)]);
      if (i % 97 === 0) expect(b.child(parent, 1000 + i)).toBe(b.nodeCount - 1);
    }
    const count = b.nodeCount;
    for (const [parent, frame, node] of made) expect(b.child(parent, frame)).toBe(node);
    expect(b.nodeCount).toBe(count);
  });
});

describe('CallTreeBuilder samples', () => {
  const build = (add: (b: CallTreeBuilder, leaf: number) => void) => {
    const b = new CallTreeBuilder();
    const leaf = b.child(b.root, 0);
    add(b, leaf);
    return b.finish().samples!;
  };

  it('keeps weights that differ and threads other than 0, however late they come', () => {
    const s = build((b, leaf) => {
      b.addSample(leaf, 1, 10);
      b.addSample(leaf, 1, 20);
      b.thread = 3;
      b.addSample(leaf, 2.5, 30);
      b.thread = 0;
      b.addSample(leaf, 1, 40);
    });
    expect([...s.weight!]).toEqual([1, 1, 2.5, 1]);
    expect([...s.thread!]).toEqual([0, 0, 3, 0]);
    expect([...timeColumn(s)]).toEqual([10, 20, 30, 40]);
  });

  it('samples that weigh alike, all of thread 0, have that weight each and no thread column', () => {
    const s = build((b, leaf) => {
      for (let i = 0; i < 100; i++) b.addSample(leaf, 7, i);
    });
    expect(s.weight).toEqual(new Float64Array(100).fill(7));
    expect(s.thread).toBeUndefined();
    expect(s.length).toBe(100);
  });

  it('reserved samples finish in columns of exactly their size, in time order', () => {
    const s = build((b, leaf) => {
      b.reserveSamples(3);
      b.addSample(leaf, 1, 30);
      b.addSample(leaf, 1, 10);
      b.addSample(leaf, 1, 20);
    });
    expect([...timeColumn(s)]).toEqual([10, 20, 30]);
    expect(s.node.buffer.byteLength).toBe(3 * 4);
    expect(timeColumn(s).buffer.byteLength).toBe(3 * 8);
  });
});
