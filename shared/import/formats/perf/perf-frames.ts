/**
 * Naming the frames of `perf script` text: from the symbol and dso columns of one frame line
 * (`JS:^EventEmitter.init node:events:347:29+0x481`, `/tmp/perf-6394.map`) to the model's
 * `FrameInput`s. Kept apart from the line reader in perf-script.ts because the two follow
 * different masters. The `label` must be exactly the text that FlameGraph's `stackcollapse-perf.pl`
 * (default options) prints for the frame, quirks included, so that `collapse()` reproduces its
 * output. The other fields are read properly: V8 `--perf-basic-prof` frames become function,
 * script, line, column and tier, and frames without a symbol are named after their dso.
 */
import { type FrameInput, type FrameTableBuilder, detached } from '../../../model/builders';
import type { FrameLine } from './perf-frame-line';
import { Tier } from '../../../model/types';

/** `+0x481` offsets (lower-case hex, as perf prints them). */
const OFFSET = /\+0x[0-9a-f]+$/;
/** V8 `--perf-basic-prof` code tags for JavaScript functions, current (`JS:`) and older. */
const JS_TAG = /^(?:JS|LazyCompile|Function|InterpretedFunction|Script|Eval|NativeFunction|NativeLazyCompile|NativeScript):/;
const TIERS: Record<string, Tier> = { '~': Tier.Interpreted, '^': Tier.Baseline, '+': Tier.Maglev, '*': Tier.Optimized };
const JIT_MAP = /(^|\/)perf-\d+\.map$/;
const LOCATION = /^(.*?):(\d+)(?::(\d+))?$/;

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * The reference's text for one frame: `[unknown]` becomes the dso's base name in brackets,
 * `;` becomes `:`, everything from the first `(` on is dropped (except `(anonymous namespace)`,
 * and not at all in Go names like `net/http.(*Client).Do`), quotes are removed
 * (`RegExp:[&<>\"\']` → `RegExp:[&<>\\]`), and in processes named `java` the `L` of
 * `Ljava/lang/Thread;::run` goes.
 */
function referenceLabel(part: string, dso: string, java: boolean): string {
  let f = part;
  if (f === '[unknown]') f = dso === '[unknown]' ? '[unknown]' : `[${baseName(dso)}]`;
  f = f.replaceAll(';', ':');
  const dotParen = f.indexOf('.(');
  if (!(dotParen >= 0 && f.lastIndexOf(').') >= dotParen + 2)) {
    for (let p = f.indexOf('('); p >= 0; p = f.indexOf('(', p + 1)) {
      if (!f.startsWith('anonymous namespace)', p + 1)) {
        f = f.slice(0, p);
        break;
      }
    }
  }
  f = f.replace(/["']/g, '');
  if (java && f.charCodeAt(0) === 76 /* L */ && f.includes('/')) f = f.slice(1);
  return f;
}

/** Model fields for one frame (one part of an inlined `a->b` symbol). */
function frameInput(part: string, dso: string, label: string): FrameInput {
  const jit = JIT_MAP.test(dso);
  // every field set, unknown ones empty: frames of one shape keep the code that reads them simple
  const f: FrameInput = { name: part, file: '', line: 0, column: 0, tier: Tier.Unknown, dso, label };
  if (part === '[unknown]' || part.trim() === '') {
    // No symbol: name the code after what perf knows about where it lives.
    if (dso === '[unknown]' || dso === '') f.name = '[unknown]';
    else if (jit) f.name = '[unknown JIT code]';
    else {
      const base = baseName(dso);
      f.name = base.startsWith('[') ? base : `[${base}]`;
      f.file = dso;
    }
    return f;
  }
  const tag = JS_TAG.exec(part);
  if (tag) {
    // `JS:*handler /app/server.js:12:3`, `JS:^ /srv/app/x.js:14:26` (anonymous),
    // `LazyCompile:~body_0 evalmachine.<anonymous>:1`. Function names may hold blanks
    // (`get headers`), so the location starts at the first ` /`, else at the last blank.
    let body = part.slice(tag[0].length);
    const tier = TIERS[body.charAt(0)];
    if (tier !== undefined) body = body.slice(1);
    f.tier = tier ?? Tier.Unknown;
    let sp = body.indexOf(' /');
    if (sp < 0) sp = body.lastIndexOf(' ');
    const loc = sp >= 0 ? LOCATION.exec(body.slice(sp + 1)) : null;
    if (loc) {
      f.name = body.slice(0, sp);
      f.file = loc[1]!;
      f.line = Number(loc[2]);
      if (loc[3] !== undefined) f.column = Number(loc[3]);
    } else {
      f.name = body;
    }
    return f;
  }
  // Native code: the file is the binary or shared object. JIT stubs (`Builtin:`, `RegExp:…`) get
  // no file: the map is named after the pid and would keep equal frames of two runs apart.
  if (!jit) f.file = dso;
  return f;
}

/**
 * The symbol column as printed without its `+0x481` offset: what the frames depend on (the same
 * function is printed with as many offsets as it has call sites).
 */
export function withoutOffset(symbol: string): string {
  return symbol.replace(OFFSET, '');
}

/**
 * The frames one frame line stands for, caller first: usually one, none for a symbol the
 * reference leaves out, several for an inlined `a->b` chain. `sym` is the symbol column as
 * printed without its offset (`withoutOffset`), `dsoColumn` the text inside the dso's
 * parentheses, `damaged` whether the line had a `)` inside that column or text after it, and
 * `java` whether the process is named `java` (the reference labels its frames differently).
 * Undefined when there are none (not an empty array: arrays made two ways would make the
 * caller's optimized code start over when it meets the second).
 */
export function perfFrameInputs(sym: string, dsoColumn: string, damaged: boolean, java: boolean): FrameInput[] | undefined {
  // The reference leaves out symbols that start with "(": perf prints process names that way.
  if (sym.charCodeAt(0) === 40 /* ( */) return undefined;
  // A cut-off dso column (`([kernel.kallsyms])/libpthread-2.19.so)`) still says where the code is.
  const dso = damaged ? dsoColumn.slice(0, dsoColumn.indexOf(')') >>> 0) : dsoColumn;
  // perf-map-agent writes inlined Java frames on one line, caller first, and the reference
  // marks every callee `_[i]`: `LSimpleTemplateScript3;::run->Lorg/…/AbstractCallSite;::call`
  // → `LSimpleTemplateScript3:::run;org/…/AbstractCallSite:::call_[i]`.
  const parts = sym.split('->');
  const out: FrameInput[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    out.push(frameInput(p, dso, referenceLabel(p, dsoColumn, java) + (i > 0 ? '_[i]' : '')));
  }
  return out;
}

/**
 * The frames of frame lines, named and interned once: by the line's text after the address
 * (`symbol+0x1f (dso`), and by the same text without the offset, met again for every call site of
 * a function; apart for processes named `java` (labels differ there).
 */
export class FrameLineNames {
  private readonly byLine = new Map<string, number | number[]>();
  private readonly javaByLine = new Map<string, number | number[]>();
  private readonly bySymbol = new Map<string, number | number[]>();
  private readonly javaBySymbol = new Map<string, number | number[]>();

  constructor(private readonly frames: FrameTableBuilder) {}

  /**
   * The frames of `line`, whose columns `readFrame` found (`fl`). `byLine`: look in (and fill) the
   * cache of lines by their text after the address (needless for lines the line scanner
   * numbered: it tells lines apart by their whole text, and a line's address goes with its offset).
   */
  of(line: string, fl: FrameLine, java: boolean, byLine = true): number | number[] {
    const lines = java ? this.javaByLine : this.byLine;
    const key = byLine ? line.slice(fl.sym, fl.close) : '';
    let ids = byLine ? lines.get(key) : undefined;
    if (ids === undefined) {
      // The dso column holds no blank, so no `" ("`: the symbol without its offset and the dso
      // column tell the frames apart.
      ids = this.ofSymbol(withoutOffset(line.slice(fl.sym, fl.dso - 2)), line.slice(fl.dso, fl.close), fl.damaged, java);
      if (byLine) lines.set(detached(key), ids);
    }
    return ids;
  }

  /**
   * The frames of a frame line whose symbol without its offset is `sym` and whose dso column is
   * `dsoColumn`. (`damaged` only matters with a `)` inside the column, which makes every line
   * with that column damaged.)
   */
  ofSymbol(sym: string, dsoColumn: string, damaged: boolean, java: boolean): number | number[] {
    const symbols = java ? this.javaBySymbol : this.bySymbol;
    const symKey = `${sym} (${dsoColumn}`;
    let ids = symbols.get(symKey);
    if (ids === undefined) {
      ids = this.named(sym, dsoColumn, damaged, java);
      symbols.set(detached(symKey), ids);
    }
    return ids;
  }

  /** The frames of `ofSymbol`, interned, for a caller that asks once per symbol and dso column. */
  named(sym: string, dsoColumn: string, damaged: boolean, java: boolean): number | number[] {
    const inputs = perfFrameInputs(sym, dsoColumn, damaged, java);
    const interned: number[] = [];
    if (inputs !== undefined) for (let i = 0; i < inputs.length; i++) interned.push(this.frames.intern(inputs[i]!));
    return interned.length === 1 ? interned[0]! : interned;
  }
}
