/**
 * Allocation stacks of the runs whose snapshot was taken with `--track-heap-objects`: for each,
 * a flamegraph of the stacks that allocated the objects still alive, each box as wide as their
 * bytes (shared/heap/allocations.ts), drawn by the panes' chart. A click zooms into a stack
 * within that chart; the root box zooms out.
 */
import { useEffect, useRef, useState } from 'react';
import { allocationProfile, liveByStack } from '../../../shared/heap/allocations';
import type { HeapGraph, Profile } from '../../../shared/model/types';
import { buildViewTree } from '../../../shared/view/view-tree';
import { FlameChart } from '../comparison/flame-chart';
import { frameColor } from '../comparison/colors';
import { useStore } from '../store/store';
import type { HeapRun } from './HeapView';
import { formatBytes } from './RetainerPath';

const profiles = new WeakMap<HeapGraph, { profile: Profile; objects: number }>();
function allocationsOf(g: HeapGraph): { profile: Profile; objects: number } | undefined {
  if (!g.allocations) return undefined;
  let a = profiles.get(g);
  if (!a) {
    const profile = allocationProfile(g, 'allocations')!;
    const objects = liveByStack(g).count.reduce((x, y) => x + y, 0);
    profiles.set(g, (a = { profile, objects }));
  }
  return a;
}

export function AllocationStacks({ runs }: { runs: HeapRun[] }) {
  const withStacks = runs.filter((r) => r.g.allocations);
  if (withStacks.length === 0) return null;
  return (
    <section className="heap-allocations" aria-label="Allocation stacks">
      {withStacks.map((r) => (
        <AllocationChart key={r.id} title={r.title} g={r.g} />
      ))}
    </section>
  );
}

function AllocationChart({ title, g }: { title: string; g: HeapGraph }) {
  const { profile, objects } = allocationsOf(g)!;
  const palette = useStore((s) => s.palette);
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<FlameChart | null>(null);
  const [focus, setFocus] = useState<string[]>([]);
  const [hovered, setHovered] = useState<string>('');
  const [width, setWidth] = useState(0);
  const total = profile.tree.total[0] ?? 0;

  useEffect(() => {
    const node = el.current!;
    const c = new FlameChart(node, {
      onFocus: (path) => setFocus(path),
      onHover: (d) =>
        setHovered(d ? `${d.data.name}${d.data.file ? ` (${d.data.file}:${d.data.line})` : ''}: ${formatBytes(d.data.value)} live` : ''),
      onContext: () => undefined,
    });
    chart.current = c;
    const resized = new ResizeObserver(() => setWidth(node.clientWidth));
    resized.observe(node);
    setWidth(node.clientWidth);
    return () => {
      resized.disconnect();
      c.destroy();
      chart.current = null;
    };
  }, []);

  // (memoised by the React compiler: built again only when the profile, focus or width change)
  const view =
    width > 0 ? buildViewTree(profile, { focus, minFraction: 1 / width, sort: 'weight', rootName: 'all live objects' }) : undefined;
  useEffect(() => {
    if (view && chart.current)
      chart.current.render(view.root, width, true, (d) => frameColor(palette, d.category, d.tier, d.key, d.context), 'top');
  }, [view, width, palette]);

  return (
    <div className="heap-allocation">
      <h3>
        Allocation stacks — {title}:{' '}
        <span role="status" aria-label={`Live bytes by allocation stack in ${title}`} title={`${total.toLocaleString('en-US')} bytes`}>
          {formatBytes(total)} in {objects.toLocaleString('en-US')} live objects
        </span>
      </h3>
      <div ref={el} className="pane-chart heap-allocation-chart" />
      <p className="muted heap-allocation-hover">{hovered || 'Hover a stack for its live bytes; click to zoom, the root to zoom out.'}</p>
    </div>
  );
}
