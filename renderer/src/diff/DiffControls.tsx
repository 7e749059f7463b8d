import type { Normalize } from '../../../shared/diff/diff';
import { entryMatchFor } from '../store/derived';
import type { DiffView } from '../store/diff-slice';
import type { Run } from '../store/runs-slice';
import { baselineRunOf } from '../store/compared-with';
import { useStore } from '../store/store';

const NORMALIZATIONS: { value: Normalize; label: string; title: string }[] = [
  {
    value: 'absolute',
    label: 'Absolute',
    title: 'The runs did the same work (the same load): red is more time than the baseline spent there, blue is less',
  },
  {
    value: 'relative',
    label: 'Relative',
    title: 'Each run as a share of its own total: red is a larger share of the run than in the baseline, blue a smaller one',
  },
];

/** What entry-script matching does in this comparison, for the checkbox's tooltip. */
function entryTitle(runs: Run[], baselineId: string | undefined): string {
  const pairs: string[] = [];
  for (const r of runs) {
    // (each with the run it is compared with: ../store/compared-with)
    const baseline = baselineRunOf({ runs, baselineId }, r.id)?.profile;
    const m = r.profile && baseline ? entryMatchFor(r.profile, baseline) : undefined;
    if (m) pairs.push(`${r.title}: ${m.run} as ${m.baseline}`);
  }
  const rule =
    "Each run's entry script (its first file of application code, e.g. server-otel.js) is the same frame as the baseline's (server-baseline.js)";
  return pairs.length > 0 ? `${rule}.\n${pairs.join('\n')}` : `${rule}. No run has an entry script to match here.`;
}

/** How runs are compared with the baseline: colouring, normalization, measure, noise, entry scripts. */
export function DiffControls() {
  const diffView = useStore((s) => s.diffView);
  const normalize = useStore((s) => s.normalize);
  const measure = useStore((s) => s.diffMeasure);
  const noise = useStore((s) => s.noisePercent);
  const matchEntry = useStore((s) => s.matchEntry);
  const runs = useStore((s) => s.runs);
  const baselineId = useStore((s) => s.baselineId);
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
          <span className="segmented" role="group" aria-label="Normalization">
            {NORMALIZATIONS.map((n) => (
              <button
                key={n.value}
                type="button"
                aria-pressed={normalize === n.value}
                title={n.title}
                onClick={() => s.normalizeChosen(n.value)}
              >
                {n.label}
              </button>
            ))}
          </span>
          <select aria-label="Delta of" value={measure} onChange={(e) => s.diffMeasureChosen(e.currentTarget.value as 'total' | 'self')}>
            <option value="total">Δ total</option>
            <option value="self">Δ self</option>
          </select>
          <label className="noise" title={normalize === 'relative' ? 'percentage points of each run' : "% of the baseline's total"}>
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
          {/* Zoom and hover follow this too, whatever the colouring; it sits with the diff's settings. */}
          <label className="match-entry" title={entryTitle(runs, baselineId)}>
            <input type="checkbox" checked={matchEntry} onChange={(e) => s.entryMatchingChosen(e.currentTarget.checked)} />
            match entry scripts
          </label>
        </>
      )}
    </div>
  );
}
