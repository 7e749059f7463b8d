import { describe, expect, it } from 'vitest';
import { awaitsRegexEngine, compileQuery, compileQueryLoaded, loadRegexEngine } from './matcher';

// A module of its own: the engine of regular expressions has not loaded when it starts.
describe('the engine of /…/ queries, loaded on demand', () => {
  it('plain text needs nothing; a regular expression matches nothing and says why until it has loaded', async () => {
    expect(awaitsRegexEngine('dd-trace')).toBe(false);
    expect(compileQuery('dd-trace')!.match('x', '/app/node_modules/dd-trace/index.js')).toBe(true);
    expect(awaitsRegexEngine(' /dd-trace/i ')).toBe(true);
    const before = compileQuery('/dd-trace/')!;
    expect(before.match('dd-trace', '')).toBe(false);
    expect(before.error).toBe('regular expressions are not available: their code has not loaded');

    const q = await compileQueryLoaded('/DD-TRACE/i');
    expect(q!.error).toBeUndefined();
    expect(q!.match('x', '/app/node_modules/dd-trace/index.js')).toBe(true);
    expect(awaitsRegexEngine('/dd-trace/')).toBe(false);
    expect(loadRegexEngine()).toBe(loadRegexEngine());
  });
});
