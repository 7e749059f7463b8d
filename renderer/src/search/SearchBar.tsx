import { useEffect, useRef, useState } from 'react';
import { AGENT_PRESETS } from '../../../shared/search/agents';
import { regexEngineSettled } from '../../../shared/search/matcher';
import type { FilterMode } from '../store/search-slice';
import { useStore } from '../store/store';

/** How long typing must pause before the search runs (Enter runs it at once). */
const SEARCH_PAUSE_MS = 150;

/** Starts loading the engine of regular expressions; a failure shows once one is searched for. */
function warmRegexEngine(): void {
  void regexEngineSettled();
}

/** Search box, agent filters and the match-filter mode. */
export function SearchBar({ inputRef }: { inputRef: React.RefObject<HTMLInputElement | null> }) {
  const query = useStore((s) => s.query);
  const filterMode = useStore((s) => s.filterMode);
  const custom = useStore((s) => s.customPresets);
  const [saving, setSaving] = useState(false);
  // What is typed shows at once; the search runs once typing pauses (every pane redraws for it).
  const [draft, setDraft] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // A query waiting for its engine (a regular expression, the first time) stays in the box until
  // the search has it.
  const [searched, setSearched] = useState(query);
  if (searched !== query) {
    setSearched(query);
    if (draft === query) setDraft(null);
  }
  const s = useStore.getState();
  const commit = (q: string) => {
    clearTimeout(timer.current);
    s.queryChanged(q);
    setDraft(useStore.getState().query === q ? null : q);
  };
  const presets = [...AGENT_PRESETS, ...custom];
  const active = presets.find((p) => p.query === (draft ?? query));
  return (
    <div className="search-bar" role="search">
      <input
        ref={inputRef}
        type="search"
        aria-label="Search frames by function name or file path"
        placeholder="Search functions or files — text or /regex/  (Ctrl+F)"
        value={draft ?? query}
        // (the agent filters are regular expressions: their engine starts loading on the way there)
        onFocus={warmRegexEngine}
        onChange={(e) => {
          const q = e.currentTarget.value;
          setDraft(q);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => commit(q), SEARCH_PAUSE_MS);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(e.currentTarget.value);
          if (e.key === 'Escape') {
            commit('');
            e.currentTarget.blur();
          }
        }}
      />
      <select
        aria-label="Agent filter"
        onFocus={warmRegexEngine}
        onPointerEnter={warmRegexEngine}
        value={active?.id ?? ''}
        onChange={(e) => {
          const p = presets.find((x) => x.id === e.currentTarget.value);
          commit(p ? p.query : '');
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
