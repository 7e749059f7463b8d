/**
 * A file parsed by the server and read back by the window is the profile the window would have
 * imported itself, field by field, for files other tools wrote; a file that does not import
 * gives the importers' own error; the formats the window reads itself are declined.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ImportError } from '../../shared/import/errors';
import { importProfile } from '../../shared/import/import-profile';
import type { Profile } from '../../shared/model/types';
import { type ParsedAnswer, readParsedProfile } from '../../shared/workspace/parsed-profile';
import { fixturePath } from '../../test/support/files';
import { fileSource } from '../cli/node-source';
import { type ParseEvent, answerBytes, parseFile } from './parse-file';
import { digest } from '../../test/support/digest';

/** The server's answer for `path` as the window reads it, with the events the parse gave. */
async function parsedAnswer(path: string, keepThreads = true): Promise<{ events: ParseEvent[]; answer: ParsedAnswer; progress: number[] }> {
  const events: ParseEvent[] = [];
  await parseFile({ path, keepThreads }, (e) => events.push(e));
  // the answer's bytes in small pieces, as a network delivers them
  const bytes = Buffer.concat(events.flatMap(answerBytes));
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      for (let at = 0; at < bytes.length; at += 7001) c.enqueue(new Uint8Array(bytes.subarray(at, at + 7001)));
      c.close();
    },
  });
  const progress: number[] = [];
  const answer = await readParsedProfile(stream, 'x', (read) => progress.push(read));
  return { events, answer, progress };
}

const FILES = [
  'samples/ddtrace/perf.script.txt',
  'samples/baseline/perf.F999.script.txt.gz',
  'corpus/FlameGraph/test/results/perf-java-stacks-01-collapsed-pid.txt',
  'corpus/devtools-frontend/two-workers.json.gz',
  'samples/ddtrace/node_trace.1.log.gz',
  'samples/ddtrace/Heap.20261121.233100.6609.0.001.heapprofile',
  'pprof/datadog-node20-time.pb.gz',
  'samples/ddtrace/0x/ticks.json.gz',
];

describe('a file parsed by the server', () => {
  it.each(FILES)('%s: is the profile the window imports itself, every thread kept', async (file) => {
    const path = fixturePath(file);
    const { answer, progress, events } = await parsedAnswer(path);
    const own: Profile = await importProfile(fileSource(path), { options: { keepThreads: true } });
    expect('profile' in answer).toBe(true);
    if (!('profile' in answer)) return;
    expect(digest(answer.profile)).toEqual(digest(own));
    // its progress came as it read, in order, to the end
    expect(progress.length).toBeGreaterThan(0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(events.at(-1)!.type).toBe('done');
  });

  it('keeps only the thread shown without a choice when not asked to keep every one', async () => {
    const path = fixturePath('corpus/devtools-frontend/two-workers.json.gz');
    const { answer } = await parsedAnswer(path, false);
    const own = await importProfile(fileSource(path), { options: {} });
    expect('profile' in answer && digest(answer.profile)).toEqual(digest(own));
  });

  it.each(['samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile', 'samples/ddtrace/heap/after.heapsnapshot.gz'])(
    '%s: is declined (the window reads its format itself)',
    async (file) => {
      const { answer, events } = await parsedAnswer(fixturePath(file));
      expect(answer).toEqual({ declined: expect.stringMatching(/files are read in the window$/) });
      expect(events.map((e) => e.type)).not.toContain('done');
    },
  );

  describe('that does not import', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flamelens-parse-file-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it.each([
      ['perf.data', Buffer.concat([Buffer.from('PERFILE2'), Buffer.alloc(200)])],
      ['empty.txt', Buffer.alloc(0)],
      ['notes.txt', Buffer.from('these are my notes\nnot a profile\n')],
      ['cut.heapprofile', Buffer.from('{"head":{"callFrame":{"functionName":"(root)"')],
    ])('%s: gives the error the importers give', async (name, bytes) => {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const own = await importProfile(fileSource(path)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(own).toBeInstanceOf(ImportError);
      const read = await parsedAnswer(path).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(read).toBeInstanceOf(ImportError);
      expect((read as ImportError).toData()).toEqual((own as ImportError).toData());
      expect((read as ImportError).message).toContain(name);
    });
  });
});
