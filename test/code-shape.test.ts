/**
 * The shape that keeps the code readable in one sitting (docs/architecture.md): no source file
 * over 400 lines, no function over 80 lines in the importers (shared/import), and no loop of
 * imports between files (a type-only import is not a loop: it is gone at run time, and the
 * zustand store's slices name the store's type that way).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_FOLDERS = ['shared', 'node', 'electron', 'renderer/src', 'wasm', 'scripts'];
/** Written by scripts/build-wasm.mjs, not by hand. */
const GENERATED = new Set(['shared/import/io/line-scanner-wasm.ts', 'shared/import/io/scanner-layout.ts', 'wasm/layout.ts']);
const MAX_FILE_LINES = 400;
const MAX_IMPORTER_FUNCTION_LINES = 80;

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(path);
      else if (/\.(ts|tsx|mjs)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') && !GENERATED.has(path))
        out.push(path);
    }
  };
  SOURCE_FOLDERS.forEach(walk);
  return out.sort();
}

const parse = (file: string) =>
  ts.createSourceFile(
    file,
    readFileSync(join(ROOT, file), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );

const lineCount = (file: string) => readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1;

/** Every function, method, arrow or accessor with its name (or place) and its length in lines. */
function functionLengths(file: string): { name: string; lines: number }[] {
  const sf = parse(file);
  const out: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const named = (node as ts.FunctionDeclaration).name;
      const name = named ? named.getText(sf) : `function at line ${start + 1}`;
      out.push({ name: `${file}: ${name}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The project files a file imports at run time (type-only imports left out). */
function runtimeImports(file: string, known: Set<string>): string[] {
  const sf = parse(file);
  const out: string[] = [];
  for (const st of sf.statements) {
    if (!(ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) || !st.moduleSpecifier) continue;
    if (ts.isImportDeclaration(st)) {
      const clause = st.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      if (
        clause &&
        !clause.name &&
        named &&
        ts.isNamedImports(named) &&
        named.elements.length > 0 &&
        named.elements.every((e) => e.isTypeOnly)
      )
        continue;
    } else if (st.isTypeOnly) continue;
    const spec = (st.moduleSpecifier as ts.StringLiteral).text;
    if (!spec.startsWith('.')) continue;
    const base = relative(ROOT, resolve(ROOT, dirname(file), spec));
    const hit = ['', '.ts', '.tsx', '.mjs', '/index.ts'].map((e) => base + e).find((c) => known.has(c));
    if (hit) out.push(hit);
  }
  return out;
}

/** Loops in the graph, each as the files around it (Tarjan's strongly connected components). */
function importLoops(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const connect = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) loops.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) connect(v);
  return loops;
}

describe('code shape', () => {
  const files = sourceFiles();

  it(`no source file is over ${MAX_FILE_LINES} lines`, () => {
    expect(files.length).toBeGreaterThan(200);
    expect(files.filter((f) => lineCount(f) > MAX_FILE_LINES).map((f) => `${f}: ${lineCount(f)} lines`)).toEqual([]);
  });

  it(`no function in shared/import is over ${MAX_IMPORTER_FUNCTION_LINES} lines`, () => {
    const lengths = files.filter((f) => f.startsWith('shared/import/')).flatMap(functionLengths);
    expect(lengths.length).toBeGreaterThan(100);
    expect(lengths.filter((f) => f.lines > MAX_IMPORTER_FUNCTION_LINES).map((f) => `${f.name}: ${f.lines} lines`)).toEqual([]);
  });

  it('no loop of run-time imports between files', () => {
    const known = new Set(files);
    const graph = new Map(files.map((f) => [f, runtimeImports(f, known)]));
    expect([...graph.values()].flat().length).toBeGreaterThan(500);
    expect(importLoops(graph)).toEqual([]);
  });

  it('would see a loop, and a long function', () => {
    expect(
      importLoops(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
    expect(
      importLoops(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
    const long = functionLengths('shared/import/io/json-reader.ts');
    expect(Math.max(...long.map((f) => f.lines))).toBeGreaterThan(10);
  });
});
