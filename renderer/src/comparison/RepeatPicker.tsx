import type { Run } from '../store/runs-slice';
import { useStore } from '../store/store';

const MEAN = 'mean';

/**
 * A run of several repeats (a folder of profiles of one variant): how many, and which is drawn,
 * their mean or one repeat alone. The run keeps every repeat, so a choice needs no file. Repeats
 * that could not be read are named here; the others made the mean.
 */
export function RepeatPicker({ run }: { run: Run }) {
  const r = run.repeats;
  if (!r) return null;
  const k = r.profiles.length;
  const failed = r.failed;
  return (
    <span className="repeat-picker">
      <span className="badge repeats" title={`repeated runs of one variant: ${r.names.join(', ')}`}>
        {k} run{k === 1 ? '' : 's'}
      </span>
      <select
        aria-label={`Repeat of ${run.title}`}
        value={run.repeat === undefined ? MEAN : String(run.repeat)}
        onChange={(e) => useStore.getState().repeatChosen(run.id, e.target.value === MEAN ? undefined : Number(e.target.value))}
      >
        <option value={MEAN}>mean of {k}</option>
        {r.names.map((name, i) => (
          <option key={name} value={String(i)}>
            {i + 1}: {name}
          </option>
        ))}
      </select>
      {failed.length > 0 && (
        <span className="error-text" role="alert" title={failed.map((f) => f.error).join('\n')}>
          {failed.length} not read: {failed.map((f) => f.name).join(', ')}
        </span>
      )}
    </span>
  );
}
