/**
 * The heap view, for runs that are heap snapshots: a table by class (constructor or type) with
 * each run's count and retained size side by side (shallow size in the count's tooltip) and the change against the baseline,
 * classes the baseline lacks marked new; what the search's matching code keeps alive in each
 * run (the memory twin of the CPU share); and, for a class picked in the table, why its largest
 * object is alive: the shortest chain of references from the root; for snapshots taken with
 * `--track-heap-objects`, the stacks that allocated what is alive (./AllocationStacks).
 */
import { useState } from 'react';
import { type HeapClass, type HeapSummary, heapSummary, matchRetained } from '../../../shared/heap/summary';
import { objectsOfClass } from '../../../shared/heap/retainers';
import type { HeapGraph } from '../../../shared/model/types';
import { compileQuery } from '../../../shared/search/matcher';
import { baselineKind } from '../store/compared-with';
import { useStore } from '../store/store';
import { AllocatedBetween } from './AllocatedBetween';
import { AllocationStacks } from './AllocationStacks';
import { PickRow, RetainerPath, formatBytes } from './RetainerPath';
import './heap.css';

export interface HeapRun {
  id: string;
  title: string;
  baseline: boolean;
  g: HeapGraph;
  summary: HeapSummary;
}

const summaries = new WeakMap<HeapGraph, HeapSummary>();
function summaryOf(g: HeapGraph): HeapSummary {
  let s = summaries.get(g);
  if (!s) summaries.set(g, (s = heapSummary(g, 0, 'class')));
  return s;
}

const matches = new WeakMap<HeapGraph, { query: string; bytes: number; objects: number }>();
/** Bytes kept alive by the objects the search matches (cached per snapshot and query). */
function matchedBytes(g: HeapGraph, query: string): { bytes: number; objects: number } | undefined {
  const q = compileQuery(query);
  if (!q || q.error) return undefined;
  const hit = matches.get(g);
  if (hit?.query === query) return hit;
  const r = matchRetained(g, q.match);
  const out = { query, bytes: r.retainedSize, objects: r.objects };
  matches.set(g, out);
  return out;
}

function signed(n: number, fmt: (n: number) => string): string {
  return n === 0 ? '±0' : `${n > 0 ? '+' : '−'}${fmt(Math.abs(n))}`;
}

interface ClassRow {
  key: string;
  type: string;
  name: string;
  /** per run, in column order; undefined where the run has no object of the class */
  cells: (HeapClass | undefined)[];
  isNew: boolean;
  /** largest change of retained size against the baseline in any run (sort key) */
  change: number;
  /** largest retained size in any run (the next sort key: with one run, or where nothing changed) */
  retained: number;
}

function classRows(runs: HeapRun[]): ClassRow[] {
  const base = runs.findIndex((r) => r.baseline);
  const rows = new Map<string, ClassRow>();
  runs.forEach((r, i) => {
    for (const c of r.summary.classes) {
      const key = `${c.type}\u0000${c.name}`;
      let row = rows.get(key);
      if (!row)
        rows.set(key, (row = { key, type: c.type, name: c.name, cells: runs.map(() => undefined), isNew: false, change: 0, retained: 0 }));
      row.cells[i] = c;
    }
  });
  for (const row of rows.values()) {
    const b = base >= 0 ? row.cells[base] : undefined;
    row.isNew = base >= 0 && !b && row.cells.some((c) => c);
    row.change = Math.max(...row.cells.map((c, i) => (i === base ? 0 : Math.abs((c?.retainedSize ?? 0) - (b?.retainedSize ?? 0)))));
    row.retained = Math.max(...row.cells.map((c) => c?.retainedSize ?? 0));
    if (base < 0) row.change = row.retained;
  }
  return [...rows.values()].sort((a, b) => b.change - a.change || b.retained - a.retained || (a.name < b.name ? -1 : 1));
}

const MAX_ROWS = 200;

export function HeapView() {
  const allRuns = useStore((s) => s.runs);
  const baselineId = useStore((s) => s.baselineId);
  const query = useStore((s) => s.query);
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const runs: HeapRun[] = allRuns
    .filter((r) => r.status === 'ready' && r.profile?.heap)
    .map((r) => ({
      id: r.id,
      title: r.title,
      // the baseline, or the heap snapshot of the baseline's folder (../store/compared-with)
      baseline: baselineKind({ runs: allRuns, baselineId }, r.id) !== undefined,
      g: r.profile!.heap!,
      summary: summaryOf(r.profile!.heap!),
    }));
  if (runs.length === 0)
    return <p className="muted heap-empty">Open heap snapshots (.heapsnapshot) to compare what each run keeps in memory.</p>;
  const q = compileQuery(query);
  const rows = classRows(runs).filter((r) => !q || q.error || q.match(r.name, ''));
  const baseIndex = runs.findIndex((r) => r.baseline);
  const pickedRow = rows.find((r) => r.key === picked);
  return (
    <section className="heap-view" aria-label="Heap">
      <MatchLine runs={runs} query={query} />
      {runs.length >= 2 && <AllocatedBetween runs={runs} />}
      <AllocationStacks runs={runs} />
      <div className="heap-columns">
        <div className="heap-classes">
          <table aria-label="Classes">
            <thead>
              <tr>
                <th rowSpan={2}>class</th>
                {runs.map((r) => (
                  <th key={r.id} colSpan={r.baseline || baseIndex < 0 ? 2 : 3} scope="colgroup">
                    {r.title}
                    {r.baseline && <span className="muted"> (baseline)</span>}
                  </th>
                ))}
              </tr>
              <tr>
                {runs.map((r) => [
                  <th key={`${r.id}c`}>count</th>,
                  <th key={`${r.id}r`}>retained</th>,
                  ...(r.baseline || baseIndex < 0 ? [] : [<th key={`${r.id}d`}>Δ retained</th>]),
                ])}
              </tr>
            </thead>
            <tbody>
              {rows.slice(0, MAX_ROWS).map((row) => (
                <PickRow key={row.key} picked={row.key === picked} onPick={() => setPicked(row.key)}>
                  <td title={`${row.type} ${row.name}`}>
                    {row.isNew && <span className="status status-new">new</span>} {row.name}{' '}
                    {row.name !== `(${row.type})` && <span className="muted">{row.type}</span>}
                  </td>
                  {runs.map((r, i) => {
                    const c = row.cells[i];
                    const b = baseIndex >= 0 ? row.cells[baseIndex] : undefined;
                    const d = (c?.retainedSize ?? 0) - (b?.retainedSize ?? 0);
                    return [
                      <td
                        key={`${r.id}c`}
                        title={c ? `${c.count.toLocaleString('en-US')} objects, ${formatBytes(c.selfSize)} shallow` : undefined}
                      >
                        {c ? c.count.toLocaleString('en-US') : '—'}
                      </td>,
                      <td key={`${r.id}r`} title={c ? `${c.retainedSize.toLocaleString('en-US')} bytes retained` : undefined}>
                        {c ? formatBytes(c.retainedSize) : '—'}
                      </td>,
                      ...(r.baseline || baseIndex < 0
                        ? []
                        : [
                            <td key={`${r.id}d`} className={d > 0 ? 'up' : d < 0 ? 'down' : ''}>
                              {signed(d, formatBytes)}
                            </td>,
                          ]),
                    ];
                  })}
                </PickRow>
              ))}
            </tbody>
          </table>
          {rows.length > MAX_ROWS && <p className="muted">{rows.length - MAX_ROWS} more classes: search to narrow.</p>}
          {rows.length === 0 && <p className="muted">No class matches the search.</p>}
        </div>
        {pickedRow && <RetainerPanel row={pickedRow} runs={runs} />}
      </div>
    </section>
  );
}

/** What the search's matching code keeps alive in each run, with the change against the baseline. */
function MatchLine({ runs, query }: { runs: HeapRun[]; query: string }) {
  const per = runs.map((r) => ({ r, m: matchedBytes(r.g, query) }));
  if (per.every((x) => !x.m))
    return <p className="muted heap-match">Search (Ctrl+F) for an agent's name or path to see what its code keeps alive.</p>;
  const base = per.find((x) => x.r.baseline)?.m;
  return (
    <p className="heap-match" role="status" aria-label="Kept alive by matches">
      Kept alive by objects matching <code>{query.trim()}</code>:{' '}
      {per.map(({ r, m }, i) => (
        <span key={r.id}>
          {i > 0 && ' · '}
          {r.title} <strong title={`${m?.bytes.toLocaleString('en-US')} bytes`}>{formatBytes(m?.bytes ?? 0)}</strong>
          {base && !r.baseline && m && (
            <span className={m.bytes > base.bytes ? 'up' : ''}> ({signed(m.bytes - base.bytes, formatBytes)})</span>
          )}
        </span>
      ))}
    </p>
  );
}

/** Why the picked class's largest object is alive, in the first run (not the baseline, when it can) that has the class. */
function RetainerPanel({ row, runs }: { row: ClassRow; runs: HeapRun[] }) {
  const order = [...runs.keys()].sort((a, b) => Number(runs[a]!.baseline) - Number(runs[b]!.baseline));
  const i = order.find((k) => row.cells[k]);
  if (i === undefined) return null;
  const run = runs[i]!;
  const [largest] = objectsOfClass(run.g, row.type, row.name, 1, true);
  return <RetainerPath g={run.g} node={largest} name={row.name || `(${row.type})`} where={`in ${run.title}, its largest object`} />;
}
