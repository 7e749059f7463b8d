import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { folded } from '../../test/support/folded';
import { AGENT_PRESETS } from './agents';
import { compileQuery, loadRegexEngine, matchFrames, matchShare } from './matcher';

// (`/…/` queries run once their engine has loaded: matcher-loading.test.ts tests before)
await loadRegexEngine();

/** The definition, node by node: a node is under a match when its frame matches or its parent is. */
function naiveShare(t: { length: number; frame: Int32Array | number[]; parent: Int32Array | number[] }, m: Uint8Array, w: Float64Array) {
  const under = new Uint8Array(t.length);
  let inc = 0;
  let self = 0;
  let total = w[0]!;
  for (let i = 1; i < t.length; i++) {
    const own = m[t.frame[i]!]!;
    under[i] = own | under[t.parent[i]!]!;
    total += w[i]!;
    if (under[i]) inc += w[i]!;
    if (own) self += w[i]!;
  }
  return { inc, self, total };
}

describe('compileQuery', () => {
  it('plain text is a case-insensitive substring of the name or the file, special characters and all', () => {
    const q = compileQuery('(Anonymous) [x]')!;
    expect(q.match('foo (anonymous) [X] bar', '')).toBe(true);
    expect(q.match('anonymous x', '')).toBe(false);
    expect(compileQuery('DD-TRACE')!.match('wrap', '/app/node_modules/dd-trace/src/x.js')).toBe(true);
    expect(compileQuery('a.b')!.match('axb', '')).toBe(false);
  });

  it('/regex/ is tried on the name and on the file', () => {
    const q = compileQuery('/^send.*Trace$/')!;
    expect(q.match('sendWithTrace', '')).toBe(true);
    expect(q.match('x', 'sendTrace')).toBe(true);
    expect(compileQuery('/[/')!.error).toMatch(/invalid regular expression/);
  });

  it('a pattern that backtracks exponentially in a JavaScript RegExp ends at once', () => {
    const q = compileQuery('/^(a+)+$/')!;
    expect(q.error).toBeUndefined();
    // V8's RegExp takes ~13 s on 30 characters here, twice as long for every two more.
    let t = performance.now();
    expect(q.match(`${'a'.repeat(30)}!`, '')).toBe(false);
    expect(performance.now() - t).toBeLessThan(500);
    // RE2 needs one pass over the text, however long.
    const name = `${'a'.repeat(100_000)}!`;
    t = performance.now();
    expect(q.match(name, name)).toBe(false);
    expect(q.match('aaaa', '')).toBe(true);
    expect(performance.now() - t).toBeLessThan(2000);
  });

  it('says why back-references and look-around are refused', () => {
    expect(compileQuery('/(a)\\1/')!.error).toMatch(/invalid regular expression: .*back-references and look-around are not available/);
    expect(compileQuery('/a(?=b)/')!.error).toMatch(/back-references and look-around/);
    expect(compileQuery('/(?<!x)a/')!.error).toMatch(/back-references and look-around/);
  });

  it('every agent preset compiles and finds its agent by path', () => {
    const paths: Record<string, string> = {
      'dd-trace': '/srv/app/node_modules/dd-trace/packages/dd-trace/src/plugins/tracing.js',
      dynatrace: '/srv/app/node_modules/@dynatrace/oneagent/agent/x.js',
      nsolid: 'nsolid:internal/agent',
      newrelic: '/srv/app/node_modules/newrelic/lib/shim/shim.js',
      elastic: '/srv/app/node_modules/elastic-apm-node/lib/instrumentation/index.js',
      opentelemetry: '/srv/app/node_modules/@opentelemetry/instrumentation-http/build/src/http.js',
      sentry: '/srv/app/node_modules/@sentry/node/build/cjs/index.js',
    };
    for (const preset of AGENT_PRESETS) {
      const q = compileQuery(preset.query)!;
      expect(q.error, preset.id).toBeUndefined();
      expect(q.match('handler', paths[preset.id]!), preset.id).toBe(true);
      expect(q.match('handler', '/srv/app/node_modules/fastify/lib/route.js'), preset.id).toBe(false);
    }
  });

  it('matches as a JavaScript RegExp does, for patterns both accept', () => {
    const atom = fc.constantFrom('a', 'b', '.', '[ab]', '[^a]', '\\d', '\\w', '\\/', 'x', '_');
    const piece = fc.tuple(atom, fc.constantFrom('', '*', '+', '?', '{1,2}')).map(([a, q]) => a + q);
    const pattern = fc
      .tuple(fc.array(piece, { minLength: 1, maxLength: 5 }), fc.array(piece, { maxLength: 3 }), fc.boolean(), fc.boolean())
      .map(([l, r, start, end]) => `${start ? '^' : ''}(${l.join('')}${r.length ? `|${r.join('')}` : ''})${end ? '$' : ''}`);
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'x', '/', '1', '_', 'A'), maxLength: 12 });
    fc.assert(
      fc.property(pattern, fc.constantFrom('', 'i'), text, (p, flags, t) => {
        const q = compileQuery(`/${p}/${flags}`)!;
        expect(q.error).toBeUndefined();
        const rx = new RegExp(p, flags);
        // the name, or the (empty) file
        expect(q.match(t, ''), `/${p}/${flags} on ${JSON.stringify(t)}`).toBe(rx.test(t) || rx.test(''));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('matchFrames', () => {
  it('gives the same flags with the per-file shortcut as frame by frame', async () => {
    const p = await folded('a;b;c 1\n');
    const q = compileQuery('/^$/')!; // matches an empty name or an empty file: every frame here has no file
    const plain = (name: string, file: string) => q.match(name, file);
    expect([...matchFrames(p, q.match)]).toEqual([...matchFrames(p, plain)]);
  });
});

describe('matchShare', () => {
  it('counts a stack once however many matching frames it holds', async () => {
    const p = await folded('a;x;b;x 3\na;c 1\nx 2\n');
    const s = matchShare(p, matchFrames(p, compileQuery('x')!.match));
    expect(s.inclusiveWeight).toBe(5);
    expect(s.selfWeight).toBe(5);
    expect(s.inclusive).toBeCloseTo(5 / 6);
  });

  it('agrees with the node-by-node definition on random trees and queries', async () => {
    const names = ['a', 'b', 'c', 'ab', 'x'];
    const stack = fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(stack, fc.integer({ min: 1, max: 50 })), { minLength: 1, maxLength: 40 }),
        fc.constantFrom(...names),
        async (lines, q) => {
          const p = await folded(lines.map(([s, n]) => `${s.join(';')} ${n}`).join('\n'));
          const m = matchFrames(p, compileQuery(q)!.match);
          const got = matchShare(p, m);
          const want = naiveShare(p.tree, m, p.tree.self);
          expect(got.inclusiveWeight).toBe(want.inc);
          expect(got.selfWeight).toBe(want.self);
          expect(got.inclusive).toBe(want.total > 0 ? want.inc / want.total : 0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
