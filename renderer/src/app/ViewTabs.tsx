/**
 * The app's views of the open runs: synchronized flamegraphs, one function's callers and callees
 * (sandwich), heap classes, the trace-event statistics table and the runs' samples in time order. ARIA tabs: arrow keys move between them, the panel is labelled by its tab.
 */
import type { ReactNode } from 'react';
import type { AppView } from '../store/panel-slice';
import './view-tabs.css';

const TABS: { id: AppView; label: string }[] = [
  { id: 'flamegraphs', label: 'Flamegraphs' },
  { id: 'sandwich', label: 'Sandwich' },
  { id: 'heap', label: 'Heap' },
  { id: 'trace-stats', label: 'Trace statistics' },
  { id: 'time-order', label: 'Time order' },
];

export function ViewTabs({ view, onChange }: { view: AppView; onChange(v: AppView): void }) {
  // From the tab that has focus, which need not be the selected one.
  const move = (from: AppView, by: number) => {
    const i = (TABS.findIndex((t) => t.id === from) + by + TABS.length) % TABS.length;
    onChange(TABS[i]!.id);
    document.getElementById(`tab-${TABS[i]!.id}`)?.focus();
  };
  return (
    <div className="view-tabs" role="tablist" aria-label="Views">
      {TABS.map((t) => (
        <button
          key={t.id}
          id={`tab-${t.id}`}
          type="button"
          role="tab"
          aria-selected={view === t.id}
          aria-controls="view-panel"
          tabIndex={view === t.id ? 0 : -1}
          onClick={() => onChange(t.id)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
              e.preventDefault();
              move(t.id, e.key === 'ArrowRight' ? 1 : -1);
            }
          }}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

export function ViewPanel({ view, children }: { view: AppView; children: ReactNode }) {
  return (
    <div className="view-panel" id="view-panel" role="tabpanel" aria-labelledby={`tab-${view}`}>
      {children}
    </div>
  );
}
