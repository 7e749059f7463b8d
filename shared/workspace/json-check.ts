/**
 * Checks on JSON read from a workspace file. A workspace comes from disk or from somebody else,
 * so every value is tested for its type and range before use, and a bad one stops the read with a
 * message that names the file and the field (`runs[1].profile.tree.self: …`) — never a crash
 * deeper in the app on a value that only looked right.
 */

export class WorkspaceError extends Error {
  readonly file: string;
  readonly detail: string;
  constructor(file: string, detail: string) {
    super(`${file}: ${detail}`);
    this.name = 'WorkspaceError';
    this.file = file;
    this.detail = detail;
  }
}

export type Json = Record<string, unknown>;

export class JsonCheck {
  constructor(readonly file: string) {}

  fail(path: string, what: string): never {
    throw new WorkspaceError(this.file, path ? `${path}: ${what}` : what);
  }

  obj(v: unknown, path: string): Json {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(path, `expected an object, found ${describe(v)}`);
    return v as Json;
  }

  arr(v: unknown, path: string, max = Number.MAX_SAFE_INTEGER): unknown[] {
    if (!Array.isArray(v)) this.fail(path, `expected a list, found ${describe(v)}`);
    if (v.length > max) this.fail(path, `has ${v.length} entries, at most ${max} are allowed`);
    return v;
  }

  str(v: unknown, path: string, max = Number.MAX_SAFE_INTEGER): string {
    if (typeof v !== 'string') this.fail(path, `expected text, found ${describe(v)}`);
    if (v.length > max) this.fail(path, `is ${v.length} characters long, at most ${max} are allowed`);
    return v;
  }

  strings(v: unknown, path: string, length?: number): string[] {
    const a = this.arr(v, path);
    if (length !== undefined && a.length !== length) this.fail(path, `has ${a.length} entries, expected ${length}`);
    for (let i = 0; i < a.length; i++) if (typeof a[i] !== 'string') this.fail(`${path}[${i}]`, `expected text, found ${describe(a[i])}`);
    return a as string[];
  }

  num(v: unknown, path: string, range: { min?: number; max?: number; int?: boolean } = {}): number {
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(path, `expected a number, found ${describe(v)}`);
    if (range.int && !Number.isInteger(v)) this.fail(path, `expected a whole number, found ${v}`);
    if (range.min !== undefined && v < range.min) this.fail(path, `is ${v}, below the smallest allowed value ${range.min}`);
    if (range.max !== undefined && v > range.max) this.fail(path, `is ${v}, above the largest allowed value ${range.max}`);
    return v;
  }

  bool(v: unknown, path: string): boolean {
    if (typeof v !== 'boolean') this.fail(path, `expected true or false, found ${describe(v)}`);
    return v;
  }

  oneOf<T extends string>(v: unknown, path: string, allowed: readonly T[]): T {
    if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v))
      this.fail(path, `expected one of ${allowed.map((a) => `"${a}"`).join(', ')}, found ${describe(v)}`);
    return v as T;
  }

  /** An optional field: undefined when absent, else checked by `fn`. */
  opt<T>(o: Json, key: string, path: string, fn: (v: unknown, path: string) => T): T | undefined {
    return o[key] === undefined ? undefined : fn(o[key], `${path}.${key}`);
  }
}

/** A short description of a wrong value for messages, never the whole value (it may be huge). */
export function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === 'string') return v.length > 40 ? `text "${v.slice(0, 40)}…"` : `text "${v}"`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}
