/**
 * An import's progress as the window hears it: at most one report every `ms` (and always the
 * last, the whole file read). Each report renders the window again, whose thread the page's own
 * start (and, on a small machine, the import itself) needs while the bytes arrive.
 */
export function pacedProgress(
  report: (read: number, size: number | undefined) => void,
  ms: number,
  now: () => number = () => performance.now(),
): (read: number, size: number | undefined) => void {
  let last = -Infinity;
  return (read, size) => {
    const t = now();
    if (t - last < ms && read !== size) return;
    last = t;
    report(read, size);
  };
}
