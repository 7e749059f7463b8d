/** What the recovery banner says about the work it offers back (pure: tested without a browser). */

export interface RecoveryFacts {
  /** ready runs */
  runs: number;
  /** notes and boxes (the title and caption are not notes) */
  notes: number;
  title?: boolean;
  caption?: boolean;
  /** the file the comparison was saved to, when nothing changed after that save */
  savedAs?: string;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "Unsaved work from <when> (2 runs, 1 note, a title) can be restored.", or, once saved, where it was saved. */
export function recoveryMessage(r: RecoveryFacts, when: string): string {
  const parts = [plural(r.runs, 'run'), plural(r.notes, 'note')];
  if (r.title && r.caption) parts.push('a title and a caption');
  else if (r.title) parts.push('a title');
  else if (r.caption) parts.push('a caption');
  const what = `(${parts.join(', ')})`;
  if (r.savedAs !== undefined) return `The comparison from ${when}, saved as ${r.savedAs} ${what}, can be opened again.`;
  return `Unsaved work from ${when} ${what} can be restored.`;
}
