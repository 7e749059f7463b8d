/** Why a heap object is alive, heap sizes as DevTools shows them, and a table row that can be picked. */
import { retainerPath } from '../../../shared/heap/retainers';
import type { ReactNode } from 'react';
import type { HeapGraph } from '../../../shared/model/types';

/** Bytes as DevTools shows them: B, kB, MB, GB (powers of 1000). */
export function formatBytes(n: number): string {
  const a = Math.abs(n);
  if (a < 1000) return `${n} B`;
  const [div, unit] = a < 1e6 ? [1e3, 'kB'] : a < 1e9 ? [1e6, 'MB'] : [1e9, 'GB'];
  const v = n / div;
  return `${Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(1)} ${unit}`;
}

/** The shortest chain of strong references from the root to `node`. */
export function RetainerPath({ g, node, name, where }: { g: HeapGraph; node: number | undefined; name: string; where: string }) {
  const path = node === undefined ? undefined : retainerPath(g, node);
  return (
    <aside className="heap-retainers" aria-label="Retainer path">
      <h3>
        Why {name} is alive <span className="muted">{where}</span>
      </h3>
      {!path ? (
        <p className="muted">Nothing strong reaches it from the roots: it goes at the next garbage collection.</p>
      ) : (
        <ol>
          {path.map((s, k) => (
            <li key={k}>
              {k > 0 && <code className="edge">{s.edgeType === 'element' || s.edgeType === 'hidden' ? s.edge : `.${s.edge}`}</code>}{' '}
              <span className="node">{s.name || `(${s.type})`}</span>{' '}
              <span className="muted">
                {s.type} @{s.id}
              </span>{' '}
              <span className="muted" title={`${s.retainedSize.toLocaleString('en-US')} bytes retained`}>
                {formatBytes(s.selfSize)} / {formatBytes(s.retainedSize)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </aside>
  );
}

/** A row of a class table that a click or Enter picks (to show why its objects are alive). */
export function PickRow({ picked, onPick, children }: { picked: boolean; onPick(): void; children: ReactNode }) {
  return (
    <tr
      className={picked ? 'picked' : ''}
      aria-selected={picked}
      tabIndex={0}
      onClick={onPick}
      onKeyDown={(e) => e.key === 'Enter' && onPick()}
    >
      {children}
    </tr>
  );
}
