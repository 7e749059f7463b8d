/**
 * Esc closes the dialog on top, wherever the keyboard focus is, and does nothing else: the
 * comparison's own Esc (reset the zoom) is not also run underneath an open dialog.
 */
import { useEffect, useRef } from 'react';

/** Open dialogs' close functions, the most recently opened last. */
const open: { current: () => void }[] = [];

function onKey(ev: KeyboardEvent): void {
  if (ev.key !== 'Escape' || open.length === 0) return;
  ev.preventDefault();
  ev.stopImmediatePropagation();
  open[open.length - 1]!.current();
}

/** Whether a dialog is open (the app's single-key shortcuts then wait). */
export function dialogOpen(): boolean {
  return open.length > 0;
}

/** Makes Esc close this dialog while it is mounted (and on top of any other). */
export function useEscapeCloses(close: () => void): void {
  const ref = useRef(close);
  useEffect(() => {
    ref.current = close;
  });
  useEffect(() => {
    const entry = { current: () => ref.current() };
    if (open.length === 0) window.addEventListener('keydown', onKey, true);
    open.push(entry);
    return () => {
      open.splice(open.indexOf(entry), 1);
      if (open.length === 0) window.removeEventListener('keydown', onKey, true);
    };
  }, []);
}
