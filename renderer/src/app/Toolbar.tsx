import { useEffect, useRef } from 'react';
import { useStore } from '../store/store';
import { DiffControls } from '../diff/DiffControls';
import { SearchBar } from '../search/SearchBar';
import { saveWorkspace } from '../workspace/workspace-io';

interface Props {
  onOpen(): void;
  onOpenFolder(): void;
  onExport(): void;
  searchRef: React.RefObject<HTMLInputElement | null>;
}

export function Toolbar({ onOpen, onOpenFolder, onExport, searchRef }: Props) {
  return (
    <header className="toolbar">
      <span className="brand">Flamelens</span>
      <button type="button" onClick={onOpen} title="Open profiles (Ctrl+O)">
        Open…
      </button>
      <button type="button" onClick={onOpenFolder} title="Open a 0x output folder (Ctrl+Shift+O)">
        Open folder…
      </button>
      <button
        type="button"
        onClick={() => void saveWorkspace().catch((e: Error) => useStore.getState().noticeShown(`Saving failed: ${e.message}`))}
        title="Save the comparison as a .flamelens workspace (Ctrl+S)"
      >
        Save
      </button>
      <button type="button" onClick={onExport} title="Export a picture or data (Ctrl+E)">
        Export…
      </button>
      <SearchBar inputRef={searchRef} />
      <DiffControls />
      <ViewMenu />
    </header>
  );
}

/**
 * The layout choices, used less than the rest of the toolbar, in a menu of their own so that the
 * toolbar fits one row at 1280 px (L and I switch layout and orientation from the keyboard).
 */
function ViewMenu() {
  const layout = useStore((s) => s.layout);
  const orientation = useStore((s) => s.orientation);
  const sort = useStore((s) => s.sort);
  const palette = useStore((s) => s.palette);
  const s = useStore.getState();
  const menu = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    // a click elsewhere closes it, as menus do
    const away = (ev: PointerEvent) => {
      const d = menu.current;
      if (d?.open && !d.contains(ev.target as Node)) d.open = false;
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, []);
  return (
    <details className="toolbar-menu" ref={menu}>
      <summary title="Layout, orientation, order and palette">View</summary>
      <div className="toolbar-menu-items" role="group" aria-label="View">
        <button
          type="button"
          aria-pressed={layout === 'columns'}
          onClick={() => s.layoutChosen(layout === 'rows' ? 'columns' : 'rows')}
          title="Stack panes or place them in columns (L)"
        >
          {layout === 'rows' ? 'Columns' : 'Rows'}
        </button>
        <button
          type="button"
          aria-pressed={orientation === 'icicle'}
          onClick={() => s.orientationChosen(orientation === 'flame' ? 'icicle' : 'flame')}
          title="Roots at the bottom or at the top (I)"
        >
          {orientation === 'flame' ? 'Icicle' : 'Flame'}
        </button>
        <button
          type="button"
          aria-pressed={sort === 'weight'}
          onClick={() => s.sortChosen(sort === 'name' ? 'weight' : 'name')}
          title="Order children by name (aligned across panes) or heaviest first"
        >
          {sort === 'name' ? 'Heaviest first' : 'By name'}
        </button>
        <label className="check">
          <input
            type="checkbox"
            checked={palette === 'colorblind'}
            onChange={(e) => s.paletteChosen(e.currentTarget.checked ? 'colorblind' : 'default')}
          />
          Colour-blind palette
        </label>
      </div>
    </details>
  );
}
