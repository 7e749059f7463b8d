import { describe, expect, it } from 'vitest';
import { loadRegexEngine } from '../../../shared/search/matcher';
import { useStore } from './store';

const query = () => useStore.getState().query;

// A module of its own: the engine of regular expressions has not loaded when it starts.
describe('the search query', () => {
  it('a regular expression becomes the search once its engine has loaded, unless another query came meanwhile', async () => {
    const s = useStore.getState();
    s.queryChanged('/^handle/');
    // not yet: every view would have searched with an expression it cannot run
    expect(query()).toBe('');
    // plain text goes in at once
    s.queryChanged('fastify');
    expect(query()).toBe('fastify');
    s.queryChanged('/dd-trace/');
    expect(query()).toBe('fastify');
    await loadRegexEngine();
    await Promise.resolve();
    // the last asked for, not the first
    expect(query()).toBe('/dd-trace/');

    // once loaded, at once
    s.queryChanged('/^send/');
    expect(query()).toBe('/^send/');
  });
});
