import type { StateCreator } from 'zustand';
import type { AgentPreset } from '../../../shared/search/agents';
import type { AppState } from './store';

export type FilterMode = 'highlight' | 'only' | 'hide';

export interface SearchSlice {
  query: string;
  filterMode: FilterMode;
  customPresets: AgentPreset[];
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

export const createSearchSlice: StateCreator<AppState, [], [], SearchSlice> = (set) => ({
  query: '',
  filterMode: 'highlight',
  customPresets: loadPresets(),
  queryChanged: (query) => set({ query }),
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
