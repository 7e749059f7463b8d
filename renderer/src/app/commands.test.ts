import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MENU_COMMANDS } from '../../../shared/ipc/contract';
import { useStore } from '../store/store';
import { COMMANDS, type CommandContext, type KeyPress, commandForKey, runCommand } from './commands';

const initial = useStore.getState();
beforeEach(() => useStore.setState(initial, true));

const key = (k: string, mods: Partial<KeyPress> = {}): KeyPress => ({ key: k, mod: false, shift: false, ...mods });
const idFor = (k: KeyPress, typing = false) => commandForKey(k, typing)?.id;

function context(): CommandContext {
  return {
    open: vi.fn(),
    openFolder: vi.fn(),
    save: vi.fn(),
    exportPicture: vi.fn(),
    focusSearch: vi.fn(),
    showShortcuts: vi.fn(),
    record: vi.fn(),
    showView: vi.fn(),
    activePaneId: vi.fn(() => 'b'),
    focusPaneBy: vi.fn(),
  };
}

describe('the command table', () => {
  it('has a command for everything the native menu sends', () => {
    for (const id of MENU_COMMANDS) expect(COMMANDS.some((c) => c.id === id)).toBe(true);
  });

  it('gives each key press one meaning: commands sharing a key differ by when they apply', () => {
    const seen = new Map<string, string>();
    for (const c of COMMANDS)
      for (const k of c.keys) {
        const earlier = seen.get(k);
        if (earlier !== undefined) expect(COMMANDS.find((x) => x.id === earlier)?.when, `${k}: ${earlier} and ${c.id}`).toBeDefined();
        seen.set(k, c.id);
      }
  });

  it('matches each command by the keys it shows', () => {
    const press = (shown: string): KeyPress => {
      const parts = shown.split('+');
      const last = parts[parts.length - 1]!;
      const name = last === 'Esc' ? 'Escape' : last.length === 1 && parts.length > 1 ? last.toLowerCase() : last;
      return key(name === 'L' || name === 'I' ? name.toLowerCase() : name, { mod: parts.includes('Ctrl'), shift: parts.includes('Shift') });
    };
    useStore.getState().pointerModeChosen('note');
    for (const c of COMMANDS)
      for (const k of c.keys) expect(COMMANDS.filter((x) => x.matches?.(press(k))).map((x) => x.id)).toContain(c.id);
  });
});

describe('keys', () => {
  it('Esc leaves the note tool first, then resets the zoom', () => {
    useStore.getState().pointerModeChosen('note');
    const first = commandForKey(key('Escape'), false)!;
    expect(first.id).toBe('inspect');
    first.run(context());
    expect(useStore.getState().pointerMode).toBe('inspect');
    expect(idFor(key('Escape'))).toBe('reset-zoom');
  });

  it('tells undo from redo, with Shift or Y', () => {
    expect(idFor(key('z', { mod: true }))).toBe('undo');
    expect(idFor(key('Z', { mod: true, shift: true }))).toBe('redo');
    expect(idFor(key('y', { mod: true }))).toBe('redo');
  });

  it('leaves a text field its own keys, but not the file shortcuts', () => {
    expect(idFor(key('z', { mod: true }), true)).toBeUndefined();
    expect(idFor(key('l'), true)).toBeUndefined();
    expect(idFor(key('Backspace'), true)).toBeUndefined();
    expect(idFor(key('s', { mod: true }), true)).toBe('save');
    expect(idFor(key('O', { mod: true, shift: true }), true)).toBe('open-folder');
    expect(idFor(key('o', { mod: true }), true)).toBe('open');
  });

  it('does not take browser keys it has no command for', () => {
    expect(idFor(key('l', { mod: true }))).toBeUndefined();
    expect(idFor(key('r', { mod: true }))).toBeUndefined();
    expect(idFor(key('x'))).toBeUndefined();
  });

  it('switches layout and orientation with L and I', () => {
    const before = useStore.getState();
    commandForKey(key('l'), false)!.run(context());
    commandForKey(key('I', { shift: true }), false)!.run(context());
    expect(useStore.getState().layout).not.toBe(before.layout);
    expect(useStore.getState().orientation).not.toBe(before.orientation);
  });

  it('M maximises the pane the keyboard is on, a pane elsewhere moves it there, and on the same pane gives all their share', () => {
    const ctx = context(); // on pane 'b'
    commandForKey(key('m'), false)!.run(ctx);
    expect(useStore.getState().maximizedRunId).toBe('b');
    ctx.activePaneId = vi.fn(() => 'c');
    commandForKey(key('M', { shift: true }), false)!.run(ctx);
    expect(useStore.getState().maximizedRunId).toBe('c');
    commandForKey(key('m'), false)!.run(ctx);
    expect(useStore.getState().maximizedRunId).toBeNull();
    ctx.activePaneId = vi.fn(() => null);
    commandForKey(key('m'), false)!.run(ctx);
    expect(useStore.getState().maximizedRunId).toBeNull();
  });

  it('[ and ] move the keyboard between panes', () => {
    const ctx = context();
    commandForKey(key(']'), false)!.run(ctx);
    commandForKey(key('['), false)!.run(ctx);
    expect(ctx.focusPaneBy).toHaveBeenNthCalledWith(1, 1);
    expect(ctx.focusPaneBy).toHaveBeenNthCalledWith(2, -1);
  });
});

describe('menu commands', () => {
  it('run what the keys run', () => {
    const ctx = context();
    expect(runCommand('find', ctx)).toBe(true);
    expect(ctx.focusSearch).toHaveBeenCalledOnce();
    runCommand('about', ctx);
    runCommand('shortcuts', ctx);
    expect(ctx.showShortcuts).toHaveBeenCalledTimes(2);
    const layout = useStore.getState().layout;
    runCommand('toggle-layout', ctx);
    expect(useStore.getState().layout).not.toBe(layout);
    expect(runCommand('no-such-command', ctx)).toBe(false);
  });
});
