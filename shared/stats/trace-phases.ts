/** Phase letters of trace events (the `ph` field): their meaning and the order rows list them in. */

/** Phase letters of the Trace Event Format, in the order a reader expects them. */
export const PHASE_NAMES: Readonly<Record<string, string>> = {
  X: 'complete',
  B: 'begin',
  E: 'end',
  b: 'async begin',
  n: 'async instant',
  e: 'async end',
  S: 'async start (legacy)',
  T: 'async step (legacy)',
  p: 'async step (legacy)',
  F: 'async finish (legacy)',
  i: 'instant',
  I: 'instant',
  R: 'mark',
  C: 'counter',
  P: 'sample',
  s: 'flow start',
  t: 'flow step',
  f: 'flow end',
  N: 'object created',
  O: 'object snapshot',
  D: 'object destroyed',
  M: 'metadata',
  V: 'memory dump',
  v: 'memory dump',
  c: 'clock sync',
  '(': 'context enter',
  ')': 'context leave',
};
const PHASE_ORDER = Object.keys(PHASE_NAMES);

function phaseRank(ph: string): number {
  const i = PHASE_ORDER.indexOf(ph);
  return i < 0 ? PHASE_ORDER.length : i;
}

export function byPhase(a: string, b: string): number {
  return phaseRank(a) - phaseRank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** `b — async begin`; an unknown letter stands alone. */
export function phaseLabel(ph: string): string {
  const name = PHASE_NAMES[ph];
  return name ? `${ph} — ${name}` : ph || '(no phase)';
}
