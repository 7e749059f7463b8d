/**
 * What the heatmap says of the cell under the pointer. Its columns are whole seconds of the
 * capture's clock (as FlameScope draws them), so the first column starts up to a second before
 * the run does: a cell's time is told from the run's start, cut at it, and a cell wholly before
 * it says so rather than giving negative seconds.
 */
export function cellText(cell: { start: number; end: number }, runStart: number, samples: number): string {
  const count = `${samples} sample${samples === 1 ? '' : 's'}`;
  if (cell.end <= runStart) return `before the run started: ${count}`;
  return `${Math.max(0, cell.start - runStart).toFixed(3)}–${(cell.end - runStart).toFixed(3)} s into the run: ${count}`;
}
