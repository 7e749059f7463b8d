import type { Normalize } from '../../../shared/diff/diff';
import type { DiffView } from '../store/diff-slice';
import { useStore } from '../store/store';

/** How runs are compared with the baseline: colouring, normalization, measure, noise. */
export function DiffControls() {
  const diffView = useStore((s) => s.diffView);
  const normalize = useStore((s) => s.normalize);
  const measure = useStore((s) => s.diffMeasure);
  const noise = useStore((s) => s.noisePercent);
  const s = useStore.getState();
  return (
    <div className="diff-controls" role="group" aria-label="Diff against baseline">
      <select aria-label="Compare with baseline" value={diffView} onChange={(e) => s.diffViewChosen(e.currentTarget.value as DiffView)}>
        <option value="off">Colour by category</option>
        <option value="diff">Diff vs baseline</option>
        <option value="removed">What disappeared</option>
        <option value="merged">Merged diff</option>
      </select>
      {diffView !== 'off' && (
        <>
          <select aria-label="Normalization" value={normalize} onChange={(e) => s.normalizeChosen(e.currentTarget.value as Normalize)}>
            <option value="relative">Relative (% of each run)</option>
            <option value="absolute">Absolute (same work)</option>
          </select>
          <select aria-label="Delta of" value={measure} onChange={(e) => s.diffMeasureChosen(e.currentTarget.value as 'total' | 'self')}>
            <option value="total">Δ total</option>
            <option value="self">Δ self</option>
          </select>
          <label className="noise" title={normalize === 'relative' ? 'percentage points' : "% of the baseline's total"}>
            noise ±
            <input
              type="number"
              aria-label="Noise threshold"
              min={0}
              step={0.1}
              value={noise}
              onChange={(e) => s.noiseChosen(Number(e.currentTarget.value))}
              onKeyDown={(e) => e.stopPropagation()}
            />
            {normalize === 'relative' ? 'pp' : '%'}
          </label>
        </>
      )}
    </div>
  );
}
