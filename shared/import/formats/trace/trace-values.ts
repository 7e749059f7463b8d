/** Reading the loosely typed fields of trace events. */

export type Obj = Record<string, unknown>;

/** `v` as an object whose fields can be read, or undefined (null, arrays and primitives). */
export function obj(v: unknown): Obj | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** `v` as text: strings as they are, numbers and others by `String`, missing as ''. */
export function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

/** Timestamps and ids are numbers, except in Hermes files: {"ts":"11550183666","tid":"7695",…}. NaN when neither. */
export function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '') return Number(v);
  return NaN;
}
