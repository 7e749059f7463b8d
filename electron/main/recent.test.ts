import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRecentList } from './recent';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'flamelens-recent-'));
  file = join(dir, 'recent.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('recent list', () => {
  it('starts empty without a file and persists additions, most recent first', async () => {
    const r = createRecentList(file);
    await r.load();
    expect(r.list()).toEqual([]);
    await r.add(['/a.cpuprofile']);
    await r.add(['/b.cpuprofile', '/c.0x']);
    await r.add(['/a.cpuprofile']);
    expect(r.list()).toEqual(['/a.cpuprofile', '/b.cpuprofile', '/c.0x']);

    const again = createRecentList(file);
    await again.load();
    expect(again.list()).toEqual(['/a.cpuprofile', '/b.cpuprofile', '/c.0x']);
    expect(again.has('/b.cpuprofile')).toBe(true);
    expect(again.has('/etc/passwd')).toBe(false);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, paths: ['/a.cpuprofile', '/b.cpuprofile', '/c.0x'] });
  });

  it('creates its folder when the profile folder does not exist yet', async () => {
    const r = createRecentList(join(dir, 'new', 'profile', 'recent.json'));
    await r.load();
    await r.add(['/a']);
    expect(JSON.parse(readFileSync(join(dir, 'new', 'profile', 'recent.json'), 'utf8')).paths).toEqual(['/a']);
  });

  it('keeps at most `max` entries and ignores relative paths', async () => {
    const r = createRecentList(file, 3);
    await r.load();
    await r.add(['/1', '/2', '/3', '/4', 'relative']);
    expect(r.list()).toEqual(['/1', '/2', '/3']);
  });

  it('survives a corrupt or hostile file', async () => {
    writeFileSync(file, '{not json');
    const r = createRecentList(file);
    await r.load();
    expect(r.list()).toEqual([]);
    writeFileSync(file, JSON.stringify({ version: 1, paths: ['/ok', 42, 'rel/x', null] }));
    await r.load();
    expect(r.list()).toEqual(['/ok']);
  });

  it('removes, clears and notifies', async () => {
    const r = createRecentList(file);
    await r.load();
    const seen = vi.fn();
    const off = r.onChange(seen);
    await r.add(['/a', '/b']);
    await r.remove('/a');
    expect(r.list()).toEqual(['/b']);
    await r.clear();
    expect(r.list()).toEqual([]);
    off();
    await r.add(['/c']);
    expect(seen.mock.calls).toEqual([[['/a', '/b']], [['/b']], [[]]]);
  });

  it('writes atomically: quick successive changes leave one consistent file and no temp files', async () => {
    const r = createRecentList(file);
    await r.load();
    await Promise.all(Array.from({ length: 20 }, (_, i) => r.add([`/f${i}`])));
    expect(readdirSync(dir)).toEqual(['recent.json']);
    expect(JSON.parse(readFileSync(file, 'utf8')).paths).toEqual(r.list());
  });
});
