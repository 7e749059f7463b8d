/**
 * The window reads the server's answer as it reads a workspace file: it trusts nothing in it,
 * and an answer cut short or damaged is an error naming the file, never a wrong profile.
 */
import { describe, expect, it } from 'vitest';
import { ImportError } from '../import/errors';
import { folded } from '../../test/support/folded';
import { WorkspaceError } from './json-check';
import { declinedLine, errorLine, progressLine, readParsedProfile } from './parsed-profile';
import { profileBlock } from './profile-block';

function streamOf(parts: Uint8Array[], piece = 5): ReadableStream<Uint8Array> {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    all.set(p, o);
    o += p.length;
  }
  return new ReadableStream({
    start(c) {
      for (let at = 0; at < all.length; at += piece) c.enqueue(all.slice(at, at + piece));
      c.close();
    },
  });
}

const text = (s: string) => new TextEncoder().encode(s);

async function block() {
  const p = await folded('main;handler;work 3\nmain;handler 2\nmain;gc 1', 'stacks.folded');
  const { head, columns } = profileBlock(p);
  return { p, parts: [head, ...columns] };
}

describe("the server's answer", () => {
  it('gives its progress as it comes, then the profile', async () => {
    const { p, parts } = await block();
    const seen: [number, number | undefined][] = [];
    const answer = await readParsedProfile(
      streamOf([progressLine(10, 100), progressLine(100, undefined), ...parts]),
      'stacks.folded',
      (r, s) => seen.push([r, s]),
    );
    expect(seen).toEqual([
      [10, 100],
      [100, undefined],
    ]);
    expect('profile' in answer && answer.profile.tree.total[0]).toBe(p.tree.total[0]);
    expect('profile' in answer && answer.profile.frames.name).toEqual(p.frames.name);
  });

  it("throws the importers' error, naming the file and the line", async () => {
    const read = readParsedProfile(streamOf([progressLine(3, 9), errorLine({ file: 'a.perf', message: 'no samples', line: 7 })]), 'a.perf');
    await expect(read).rejects.toThrow(ImportError);
    await expect(read).rejects.toThrow('a.perf:7: no samples');
  });

  it('says why the server did not parse the file', async () => {
    expect(await readParsedProfile(streamOf([declinedLine('V8 heap snapshot files are read in the window')]), 'x')).toEqual({
      declined: 'V8 heap snapshot files are read in the window',
    });
  });

  it('refuses an answer cut short, damaged or with more after its end', async () => {
    const { parts } = await block();
    const whole = parts.reduce((n, p) => n + p.length, 0);
    const bytes = new Uint8Array(whole);
    let o = 0;
    for (const p of parts) {
      bytes.set(p, o);
      o += p.length;
    }
    const cases: [string, Uint8Array[], RegExp][] = [
      ['nothing', [], /ends before its result/],
      ['only progress', [progressLine(1, 2)], /ends before its result/],
      ['cut inside the data', [bytes.subarray(0, whole - 3)], /ends inside the profile's data/],
      ['more after the end', [bytes, text('{}')], /data after its end/],
      ['not JSON', [text('{"progress":\n')], /not valid JSON/],
      ['a bad progress line', [text('{"progress":["a",1]}\n')], /progress\[0\]: expected a number/],
      ['a section larger than any answer', [text('{"sections":[17179869185],"profile":{}}\n')], /too large/],
    ];
    for (const [what, answer, why] of cases) {
      const read = readParsedProfile(streamOf(answer), 'stacks.folded');
      await expect(read, what).rejects.toThrow(WorkspaceError);
      await expect(read, what).rejects.toThrow(why);
    }
  });
});
