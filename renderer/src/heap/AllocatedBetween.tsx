/**
 * The leak workflow: two snapshots of one process picked, the objects the later holds that were
 * allocated since the earlier (by object id), by class, with the bytes they keep alive, and why
 * the largest new object of a picked class is alive.
 */
import { useMemo, useState } from 'react';
import { type Allocated, allocatedBetween } from '../../../shared/heap/allocated';
import { objectsOfClass } from '../../../shared/heap/retainers';
import type { HeapRun } from './HeapView';
import { PickRow, RetainerPath, formatBytes } from './RetainerPath';

const MAX_ROWS = 100;

export function AllocatedBetween({ runs }: { runs: HeapRun[] }) {
  const [fromId, setFrom] = useState('');
  const [toId, setTo] = useState('');
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const from = runs.find((r) => r.id === fromId);
  const to = runs.find((r) => r.id === toId);
  // (the view makes its run objects afresh on each render: the snapshots themselves are the keys)
  const before = from?.g;
  const after = to?.g;
  const result: Allocated | undefined = useMemo(
    () => (before && after && before !== after ? allocatedBetween(before, after) : undefined),
    [before, after],
  );
  const pick = (label: string, value: string, set: (v: string) => void) => (
    <select aria-label={label} value={value} onChange={(e) => (set(e.currentTarget.value), setPicked(undefined))}>
      <option value="">choose a snapshot</option>
      {runs.map((r) => (
        <option key={r.id} value={r.id}>
          {r.title}
        </option>
      ))}
    </select>
  );
  const row = result?.classes.find((c) => `${c.type}\u0000${c.name}` === picked);
  const largestNew = useMemo(
    () => (row && after && result ? objectsOfClass(after, row.type, row.name, 1, true, result.isNew)[0] : undefined),
    [row, after, result],
  );
  return (
    <section className="heap-allocated" aria-label="Allocated between snapshots">
      <p>
        Objects allocated between {pick('Earlier snapshot', fromId, setFrom)} and {pick('Later snapshot', toId, setTo)}{' '}
        <span className="muted">(two snapshots of one process: an object keeps its id for its life)</span>
      </p>
      {result && (
        <>
          <p role="status" aria-label="Allocated since the earlier snapshot">
            <strong>{result.count.toLocaleString('en-US')}</strong> objects ({formatBytes(result.selfSize)}) allocated since {from!.title},
            keeping <strong title={`${result.retainedSize.toLocaleString('en-US')} bytes`}>{formatBytes(result.retainedSize)}</strong> alive
          </p>
          <table aria-label="Allocated classes">
            <thead>
              <tr>
                <th>class</th>
                <th>new objects</th>
                <th>shallow</th>
                <th>retained</th>
              </tr>
            </thead>
            <tbody>
              {result.classes.slice(0, MAX_ROWS).map((c) => {
                const key = `${c.type}\u0000${c.name}`;
                return (
                  <PickRow key={key} picked={key === picked} onPick={() => setPicked(key)}>
                    <td title={`${c.type} ${c.name}`}>
                      {c.name} {c.name !== `(${c.type})` && <span className="muted">{c.type}</span>}
                    </td>
                    <td>{c.count.toLocaleString('en-US')}</td>
                    <td>{formatBytes(c.selfSize)}</td>
                    <td title={`${c.retainedSize.toLocaleString('en-US')} bytes retained`}>{formatBytes(c.retainedSize)}</td>
                  </PickRow>
                );
              })}
            </tbody>
          </table>
          {result.classes.length > MAX_ROWS && <p className="muted">{result.classes.length - MAX_ROWS} more classes.</p>}
          {row && <RetainerPath g={to!.g} node={largestNew} name={row.name} where={`in ${to!.title}, its largest new object`} />}
        </>
      )}
    </section>
  );
}
