import { AnnotationBar } from '../annotate/AnnotationBar';
import { ErrorBoundary } from '../app/ErrorBoundary';
import { DiffTable } from '../diff/DiffTable';
import { REPEATS_NOTE, diffLegend, diffLegendNote } from '../diff/diff-colors';
import { repeatsCounts } from '../store/derived-repeats';
import { useStore } from '../store/store';
import { legend } from './colors';
import { FlamePane } from './FlamePane';

/** Breadcrumbs of the shared focus path; names come from the first run that has each frame. */
function Breadcrumbs() {
  const focus = useStore((s) => s.focus);
  const runs = useStore((s) => s.runs);
  if (focus.length === 0) return null;
  const nameOf = (key: string) => {
    for (const r of runs) {
      const f = r.profile?.frames;
      if (!f) continue;
      const i = f.key.indexOf(key);
      if (i >= 0) return f.name[i]!;
    }
    return key.split('\t')[0]!;
  };
  const s = useStore.getState();
  return (
    <nav className="breadcrumbs" aria-label="Focused call path">
      <button type="button" onClick={() => s.focusReset()}>
        all
      </button>
      {focus.map((k, i) => (
        <span key={`${i}:${k}`}>
          <span className="sep">›</span>
          <button
            type="button"
            aria-current={i === focus.length - 1 ? 'location' : undefined}
            onClick={() => s.pathFocused(focus.slice(0, i + 1))}
          >
            {nameOf(k)}
          </button>
        </span>
      ))}
      <span className="muted hint">Esc resets · Backspace goes up · ? shortcuts</span>
    </nav>
  );
}

/** How many repeats the runs compared across repeats have (`5 runs each`), or undefined where none are. */
function useRepeatsCounts(): string | undefined {
  const runs = useStore((s) => s.runs);
  const baselineId = useStore((s) => s.baselineId);
  const normalize = useStore((s) => s.normalize);
  const measure = useStore((s) => s.diffMeasure);
  const matchEntry = useStore((s) => s.matchEntry);
  const diffView = useStore((s) => s.diffView);
  return diffView === 'off' ? undefined : repeatsCounts(runs, baselineId, normalize, measure, matchEntry);
}

function Legend() {
  const palette = useStore((s) => s.palette);
  const diffView = useStore((s) => s.diffView);
  const normalize = useStore((s) => s.normalize);
  const noise = useStore((s) => s.noisePercent);
  const unit = useStore((s) => s.runs.find((r) => r.id === s.baselineId)?.profile?.unit);
  const repeats = useRepeatsCounts();
  if (diffView !== 'off')
    return (
      <ul className="legend" aria-label="Diff colours">
        {diffLegend(palette, normalize, unit, repeats).map((e) => (
          <li key={e.label}>
            <span className="swatch" style={{ background: e.color }} />
            {e.label}
          </li>
        ))}
        <li className="muted">{diffLegendNote(normalize, noise)}</li>
        {repeats && <li className="muted">{REPEATS_NOTE}</li>}
      </ul>
    );
  return (
    <ul className="legend" aria-label="Frame colours">
      {legend(palette).map((e) => (
        <li key={e.category}>
          <span className="swatch" style={{ background: e.color }} />
          {e.name}
        </li>
      ))}
      <li>
        <span className="swatch pale" /> paler: interpreted
      </li>
    </ul>
  );
}

export function Comparison() {
  const runs = useStore((s) => s.runs);
  const layout = useStore((s) => s.layout);
  const diffView = useStore((s) => s.diffView);
  const maximized = useStore((s) => s.maximizedRunId !== null && s.runs.some((r) => r.id === s.maximizedRunId));
  return (
    <main className="comparison">
      <AnnotationBar />
      <Breadcrumbs />
      <div className="comparison-body">
        <div
          className={`panes panes-${maximized ? 'rows panes-maximized' : layout}`}
          style={{ ['--pane-count' as string]: String(runs.length) }}
        >
          {runs.map((r, i) => (
            <FlamePane key={r.id} run={r} index={i} count={runs.length} />
          ))}
        </div>
        {diffView !== 'off' && (
          <ErrorBoundary what="The diff table" resetKey={diffView}>
            <DiffTable />
          </ErrorBoundary>
        )}
      </div>
      <Legend />
    </main>
  );
}
