import { useState } from 'react';
import { AGENT_PRESETS } from '../../../shared/search/agents';
import type { FilterMode } from '../store/search-slice';
import { useStore } from '../store/store';

/** Search box, agent filters and the match-filter mode. */
export function SearchBar({ inputRef }: { inputRef: React.RefObject<HTMLInputElement | null> }) {
  const query = useStore((s) => s.query);
  const filterMode = useStore((s) => s.filterMode);
  const custom = useStore((s) => s.customPresets);
  const [saving, setSaving] = useState(false);
  const s = useStore.getState();
  const presets = [...AGENT_PRESETS, ...custom];
  const active = presets.find((p) => p.query === query);
  return (
    <div className="search-bar" role="search">
      <input
        ref={inputRef}
        type="search"
        aria-label="Search frames by function name or file path"
        placeholder="Search functions or files — text or /regex/  (Ctrl+F)"
        value={query}
        onChange={(e) => s.queryChanged(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            s.queryChanged('');
            e.currentTarget.blur();
          }
        }}
      />
      <select
        aria-label="Agent filter"
        value={active?.id ?? ''}
        onChange={(e) => {
          const p = presets.find((x) => x.id === e.currentTarget.value);
          s.queryChanged(p ? p.query : '');
        }}
      >
        <option value="">Agent filter…</option>
        {AGENT_PRESETS.map((p) => (
          <option key={p.id} value={p.id}>
            {p.label}
          </option>
        ))}
        {custom.length > 0 && (
          <optgroup label="Your filters">
            {custom.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </optgroup>
        )}
      </select>
      {saving ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const label = new FormData(e.currentTarget).get('label');
            if (typeof label === 'string' && label.trim() && query.trim()) s.presetSaved(label.trim(), query);
            setSaving(false);
          }}
        >
          <input name="label" aria-label="Filter name" placeholder="Name this filter" autoFocus />
          <button type="submit">Save</button>
        </form>
      ) : (
        <button type="button" disabled={!query.trim() || !!active} onClick={() => setSaving(true)} title="Save the search as a filter">
          Save filter
        </button>
      )}
      {active?.id.startsWith('custom:') && (
        <button type="button" onClick={() => s.presetDeleted(active.id)}>
          Delete filter
        </button>
      )}
      <select aria-label="Show matches" value={filterMode} onChange={(e) => s.filterModeChosen(e.currentTarget.value as FilterMode)}>
        <option value="highlight">Highlight matches</option>
        <option value="only">Only stacks with matches</option>
        <option value="hide">Hide matches</option>
      </select>
    </div>
  );
}
