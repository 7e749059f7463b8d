/**
 * Every command of the app in one table: what it is called, the keys that run it, and what it
 * does. The native menu (Electron) sends commands by id, the keyboard finds them by key, and the
 * shortcuts overlay (`?`) lists them from here, so the three cannot drift apart.
 */
import type { MenuCommand } from '../../../shared/ipc/contract';
import { useStore } from '../store/store';
import type { AppView } from '../store/panel-slice';

/** What commands need from the app around them (its dialogs and fields). */
export interface CommandContext {
  open(): void;
  openFolder(): void;
  save(): void;
  exportPicture(): void;
  focusSearch(): void;
  showShortcuts(): void;
  /** the Record… dialog, where the host can record */
  record(): void;
  showView(view: AppView): void;
  /** the run of the pane the keyboard is on or the pointer is over */
  activePaneId(): string | null;
  /** moves the keyboard to the next or previous pane */
  focusPaneBy(step: 1 | -1): void;
}

/** A key press as the table matches it: `mod` is Ctrl, or ⌘ on a Mac. */
export interface KeyPress {
  key: string;
  mod: boolean;
  shift: boolean;
}

export type CommandId =
  | MenuCommand
  | 'open-folder'
  | 'undo'
  | 'redo'
  | 'inspect'
  | 'view-flamegraphs'
  | 'view-sandwich'
  | 'view-heap'
  | 'view-trace-stats'
  | 'view-time-order'
  | 'sandwich-hovered'
  | 'maximize-pane'
  | 'next-pane'
  | 'previous-pane'
  | 'record';

export interface Command {
  id: CommandId;
  /** what the shortcuts overlay calls it */
  label: string;
  /** its keys as the overlay shows them (the first also drawn in menus) */
  keys: string[];
  /** whether this key press runs it */
  matches?(k: KeyPress): boolean;
  /** runs even while a text field has the keyboard (the file and save shortcuts) */
  whileTyping?: boolean;
  /** when it applies; another command with the same key is tried when it does not */
  when?(): boolean;
  run(ctx: CommandContext): void;
}

const ctrl = (letter: string) => (k: KeyPress) => k.mod && !k.shift && k.key.toLowerCase() === letter;
const ctrlShift = (letter: string) => (k: KeyPress) => k.mod && k.shift && k.key.toLowerCase() === letter;
const plain = (key: string) => (k: KeyPress) => !k.mod && k.key === key;
const state = () => useStore.getState();

export const COMMANDS: readonly Command[] = [
  { id: 'open', label: 'Open profiles…', keys: ['Ctrl+O'], matches: ctrl('o'), whileTyping: true, run: (c) => c.open() },
  {
    id: 'open-folder',
    label: 'Open a folder…',
    keys: ['Ctrl+Shift+O'],
    matches: ctrlShift('o'),
    whileTyping: true,
    run: (c) => c.openFolder(),
  },
  {
    id: 'save',
    label: 'Save the workspace',
    keys: ['Ctrl+S'],
    matches: ctrl('s'),
    whileTyping: true,
    run: (c) => c.save(),
  },
  {
    id: 'export',
    label: 'Export a picture or data…',
    keys: ['Ctrl+E'],
    matches: ctrl('e'),
    whileTyping: true,
    run: (c) => c.exportPicture(),
  },
  { id: 'find', label: 'Find frames', keys: ['Ctrl+F'], matches: ctrl('f'), whileTyping: true, run: (c) => c.focusSearch() },
  {
    id: 'inspect',
    label: 'Leave the note or box tool',
    keys: ['Esc'],
    matches: plain('Escape'),
    when: () => state().pointerMode !== 'inspect',
    run: () => state().pointerModeChosen('inspect'),
  },
  { id: 'reset-zoom', label: 'Reset the zoom', keys: ['Esc'], matches: plain('Escape'), run: () => state().focusReset() },
  { id: 'zoom-out', label: 'Zoom out one level', keys: ['Backspace'], matches: plain('Backspace'), run: () => state().focusUp() },
  {
    id: 'redo',
    label: 'Redo',
    keys: ['Ctrl+Shift+Z', 'Ctrl+Y'],
    matches: (k) => ctrlShift('z')(k) || ctrl('y')(k),
    run: () => state().annotationsRedone(),
  },
  { id: 'undo', label: 'Undo', keys: ['Ctrl+Z'], matches: ctrl('z'), run: () => state().annotationsUndone() },
  {
    id: 'toggle-layout',
    label: 'Rows or columns',
    keys: ['L'],
    matches: (k) => !k.mod && k.key.toLowerCase() === 'l',
    run: () => state().layoutChosen(state().layout === 'rows' ? 'columns' : 'rows'),
  },
  {
    id: 'toggle-orientation',
    label: 'Flame or icicle',
    keys: ['I'],
    matches: (k) => !k.mod && k.key.toLowerCase() === 'i',
    run: () => state().orientationChosen(state().orientation === 'flame' ? 'icicle' : 'flame'),
  },
  {
    id: 'maximize-pane',
    label: 'Maximise the pane (or give every pane its share again)',
    keys: ['M'],
    matches: (k) => !k.mod && k.key.toLowerCase() === 'm',
    // the pane the keyboard or pointer is on; on the maximised pane (or none), every pane again
    run: (c) => {
      const id = c.activePaneId();
      state().paneMaximized(id !== null && id !== state().maximizedRunId ? id : null);
    },
  },
  { id: 'next-pane', label: 'Next pane', keys: [']'], matches: plain(']'), run: (c) => c.focusPaneBy(1) },
  { id: 'previous-pane', label: 'Previous pane', keys: ['['], matches: plain('['), run: (c) => c.focusPaneBy(-1) },
  { id: 'view-flamegraphs', label: 'Show the flamegraphs', keys: ['1'], matches: plain('1'), run: (c) => c.showView('flamegraphs') },
  {
    id: 'view-sandwich',
    label: "Show a function's callers and callees",
    keys: ['2'],
    matches: plain('2'),
    run: (c) => c.showView('sandwich'),
  },
  { id: 'view-heap', label: 'Show the heap classes', keys: ['3'], matches: plain('3'), run: (c) => c.showView('heap') },
  {
    id: 'view-trace-stats',
    label: 'Show the trace statistics',
    keys: ['4'],
    matches: plain('4'),
    run: (c) => c.showView('trace-stats'),
  },
  {
    id: 'view-time-order',
    label: "Show every run's samples in time order",
    keys: ['5'],
    matches: plain('5'),
    run: (c) => c.showView('time-order'),
  },
  {
    id: 'sandwich-hovered',
    label: 'Callers and callees of the frame under the pointer',
    keys: ['S'],
    matches: (k) => !k.mod && k.key.toLowerCase() === 's',
    when: () => state().hoveredKey !== null,
    run: () => state().sandwichShown(state().hoveredKey!),
  },
  {
    id: 'record',
    label: 'Record a comparison…',
    keys: ['R'],
    matches: (k) => !k.mod && k.key.toLowerCase() === 'r',
    run: (c) => c.record(),
  },
  { id: 'shortcuts', label: 'Keyboard shortcuts', keys: ['?'], matches: plain('?'), run: (c) => c.showShortcuts() },
  { id: 'about', label: 'About Flamelens', keys: [], run: (c) => c.showShortcuts() },
];

/** The command a key press runs, if any: `typing` when a text field has the keyboard. */
export function commandForKey(k: KeyPress, typing: boolean): Command | undefined {
  for (const c of COMMANDS) {
    if (!c.matches?.(k) || (typing && !c.whileTyping)) continue;
    if (c.when && !c.when()) continue;
    return c;
  }
  return undefined;
}

/** Runs the command `id` (sent by the native menu), if the table has it. */
export function runCommand(id: string, ctx: CommandContext): boolean {
  const c = COMMANDS.find((x) => x.id === id);
  if (!c) return false;
  c.run(ctx);
  return true;
}
