/**
 * Which pane the keyboard is on, found from the document: the pane that holds the keyboard focus,
 * else the one under the pointer. Panes are the `section.pane` elements, in their order on screen.
 */

const panes = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('section.pane[data-run-id]')];

/** The run id of the pane the keyboard is on or the pointer is over, or null. */
export function activePaneId(): string | null {
  const active = document.activeElement?.closest<HTMLElement>('section.pane[data-run-id]');
  const pane = active ?? document.querySelector<HTMLElement>('section.pane[data-run-id]:hover');
  return pane?.dataset.runId ?? null;
}

/** Moves the keyboard to the next (1) or previous (-1) pane, wrapping round, and shows it. */
export function focusPaneBy(step: 1 | -1): void {
  const all = panes();
  if (all.length === 0) return;
  const id = activePaneId();
  const at = all.findIndex((p) => p.dataset.runId === id);
  const next = all[at < 0 ? (step > 0 ? 0 : all.length - 1) : (at + step + all.length) % all.length]!;
  next.focus();
  next.scrollIntoView({ block: 'nearest' });
}
