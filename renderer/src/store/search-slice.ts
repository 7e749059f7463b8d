import type { StateCreator } from 'zustand';
import type { AgentPreset } from '../../../shared/search/agents';
import { awaitsRegexEngine, regexEngineSettled } from '../../../shared/search/matcher';
import type { AppState } from './store';

export type FilterMode = 'highlight' | 'only' | 'hide';

export interface SearchSlice {
  query: string;
  filterMode: FilterMode;
  customPresets: AgentPreset[];
  /**
   * The search becomes `q`: at once, or for a regular expression whose engine has not loaded yet
   * once it has (unless another query came meanwhile), so that every view searches with it.
   */
  queryChanged(q: string): void;
  filterModeChosen(m: FilterMode): void;
  presetSaved(label: string, query: string): void;
  presetDeleted(id: string): void;
}

const PRESETS_KEY = 'flamelens.customPresets';

function loadPresets(): AgentPreset[] {
  try {
    const raw = localStorage.getItem(PRESETS_KEY);
    const parsed = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(parsed)
      ? parsed.filter((p): p is AgentPreset => typeof p?.label === 'string' && typeof p?.query === 'string')
      : [];
  } catch {
    return [];
  }
}

function savePresets(p: AgentPreset[]): void {
  try {
    localStorage.setItem(PRESETS_KEY, JSON.stringify(p));
  } catch {
    /* storage unavailable: presets last for this session */
  }
}

/** The query asked for last (`queryChanged`), which a query waiting for its engine must still be. */
let latest: string | undefined;

export const createSearchSlice: StateCreator<AppState, [], [], SearchSlice> = (set) => ({
  query: '',
  filterMode: 'highlight',
  customPresets: loadPresets(),
  queryChanged: (query) => {
    latest = query;
    if (!awaitsRegexEngine(query)) return set({ query });
    // (where the engine fails to load, the query goes in all the same and says why it matches nothing)
    void regexEngineSettled().then(() => latest === query && set({ query }));
  },
  filterModeChosen: (filterMode) => set({ filterMode }),
  presetSaved: (label, query) =>
    set((s) => {
      const customPresets = [...s.customPresets.filter((p) => p.label !== label), { id: `custom:${label}`, label, query }];
      savePresets(customPresets);
      return { customPresets };
    }),
  presetDeleted: (id) =>
    set((s) => {
      const customPresets = s.customPresets.filter((p) => p.id !== id);
      savePresets(customPresets);
      return { customPresets };
    }),
});
