/**
 * The import worker takes a file parsed by the host where the host gives one, reads the file
 * itself wherever it does not, and reports a file that does not import as the importers do.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ImportError } from '../../../shared/import/errors';
import { declinedLine, errorLine, progressLine } from '../../../shared/workspace/parsed-profile';
import { profileBlock } from '../../../shared/workspace/profile-block';
import { folded } from '../../../test/support/folded';
import { parsedByHost } from './host-parsed';

afterEach(() => vi.unstubAllGlobals());

/** fetch answering every request with `parts` (or `status` alone), noting the addresses asked. */
function answer(parts: Uint8Array[], status = 200): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    asked.push(url);
    return new Response(status === 200 ? new Blob(parts as BlobPart[]) : 'no', { status });
  });
  return asked;
}

describe('a host file parsed by the host', () => {
  it('is the profile the host sent, every thread kept when asked, with its progress', async () => {
    const p = await folded('main;handler;work 3\nmain;gc 1', 'stacks.folded');
    const { head, columns } = profileBlock(p);
    const asked = answer([progressLine(50, 100), head, ...columns]);
    const progress: number[] = [];
    const got = await parsedByHost('http://h/api/parsed/t', 'stacks.folded', true, (read) => progress.push(read));
    expect(asked).toEqual(['http://h/api/parsed/t?threads=all']);
    expect(progress).toEqual([50]);
    expect(got?.frames.name).toEqual(p.frames.name);
    expect(Array.from(got!.tree.self)).toEqual(Array.from(p.tree.self));
    answer([head, ...columns]);
    expect(await parsedByHost('http://h/api/parsed/t', 'stacks.folded', false)).toBeDefined();
  });

  it('is read by the worker itself where the host does not parse it or its answer is damaged', async () => {
    answer([], 404);
    expect(await parsedByHost('http://h/api/parsed/t', 'a.heapsnapshot', true)).toBeUndefined();
    answer([declinedLine('V8 heap snapshot files are read in the window')]);
    expect(await parsedByHost('http://h/api/parsed/t', 'a.heapsnapshot', true)).toBeUndefined();
    answer([progressLine(1, 2), new TextEncoder().encode('{"sections":[100],"profile":{}}\n')]);
    expect(await parsedByHost('http://h/api/parsed/t', 'a.perf', true)).toBeUndefined();
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    expect(await parsedByHost('http://h/api/parsed/t', 'a.perf', true)).toBeUndefined();
  });

  it("reports a file that does not import with the importers' error", async () => {
    answer([errorLine({ file: 'perf.data', message: 'this is a binary perf.data file' })]);
    const read = parsedByHost('http://h/api/parsed/t', 'perf.data', true);
    await expect(read).rejects.toThrow(ImportError);
    await expect(read).rejects.toThrow('perf.data: this is a binary perf.data file');
  });
});
