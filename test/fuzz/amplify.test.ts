/**
 * Inputs that make the model grow much faster than their bytes (./gen-amplify) end with the build
 * budget's error (model/budget.ts), naming the file and the budget, in well under a second of
 * building; small ones of the same shapes, and every real sample file, import. Real files build a
 * small part of what the budget allows.
 */
import fc from 'fast-check';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../../shared/import/errors';
import { importProfile } from '../../shared/import/import-profile';
import type { Importer } from '../../shared/import/importer';
import { bytesSource } from '../../shared/import/io/source';
import { BuildBudget, allocate } from '../../shared/model/budget';
import { checkProfile } from '../../shared/model/integrity';
import { fileSource, fixturePath } from '../support/files';
import { AMPLIFIERS, amplified, deepFoldedLine, pprofInlineChain } from './gen-amplify';

const BUDGET_ERROR =
  /would take more memory than any profile of its size needs \(\d+ MiB built from \d+(\.\d)? [KM]iB read; the budget is 64 MiB plus 16 bytes per byte read\)/;

describe('the build budget', () => {
  for (const a of AMPLIFIERS)
    it(`ends the import of ${a.name} with an error naming the file and the budget`, async () => {
      const bytes = a.make(4);
      const error = await importProfile(bytesSource(a.file, bytes)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ImportError);
      const message = (error as Error).message;
      expect(message).toMatch(BUDGET_ERROR);
      expect(message.startsWith(a.file)).toBe(true);
      expect(message).not.toContain('\n');
    }, 60_000);

  it('the fuzz generator: every amplified input ends with that error or is refused another way, never a crash', async () => {
    await fc.assert(
      fc.asyncProperty(amplified, async ({ a, scale }) => {
        const e = await importProfile(bytesSource(a.file, a.make(scale))).then(
          () => undefined,
          (x: unknown) => x,
        );
        expect(e).toBeInstanceOf(ImportError);
      }),
      { numRuns: 4 },
    );
  }, 120_000);

  it('lets the same shapes through at sizes real files have', async () => {
    for (const [file, bytes] of [
      ['small.pb', pprofInlineChain(20, 50)],
      ['small.folded', deepFoldedLine(50_000)],
    ] as const) {
      const p = await importProfile(bytesSource(file, bytes));
      expect(checkProfile(p)).toEqual([]);
    }
  });

  it('keeps the other imports going when one is refused', async () => {
    const a = AMPLIFIERS[0]!;
    const [bad, good] = await Promise.allSettled([
      importProfile(bytesSource(a.file, a.make(4))),
      importProfile(fileSource(fixturePath('samples/ddtrace', 'CPU.20261121.233052.6494.0.001.cpuprofile'))),
    ]);
    expect(bad.status).toBe('rejected');
    expect(good.status).toBe('fulfilled');
  }, 60_000);

  it('real sample files build at most 4 bytes per byte read (a quarter of the budget) past 1 MiB', async () => {
    const dirs = ['samples/baseline', 'samples/ddtrace'];
    for (const d of dirs)
      for (const name of readdirSync(fixturePath(d))) {
        const path = join(fixturePath(d), name);
        if (!statSync(path).isFile()) continue;
        const p = await importProfile(fileSource(path), { limits: { perByte: 4, floor: 2 ** 20 } });
        expect(p.tree.length, name).toBeGreaterThan(1);
      }
  }, 120_000);

  it('turns an allocation the system refuses into the budget error', () => {
    const b = new BuildBudget(
      () => 0,
      (m) => new ImportError({ file: 'x.cpuprofile', message: m }),
    );
    expect(() =>
      allocate(b, 8, () => {
        throw new RangeError('Array buffer allocation failed');
      }),
    ).toThrow(/x\.cpuprofile.*needs more memory than this process can have/);
    expect(() => allocate(b, 8, () => new Float64Array(1))).not.toThrow();
  });
});

describe('an allocation refused anywhere in an import', () => {
  const refusing = (error: Error): Importer => ({
    id: 'folded',
    label: 'refuses',
    extensions: ['.x'],
    sniff: () => true,
    parse: () => Promise.reject(error),
  });

  it('ends it with one line naming the file, as the budget does', async () => {
    const src = bytesSource('huge.cpuprofile', 'x');
    await expect(importProfile(src, { importers: [refusing(new RangeError('Array buffer allocation failed'))] })).rejects.toThrow(
      /^huge\.cpuprofile.*needs more memory than this process can have \(Array buffer allocation failed/,
    );
  });

  it('leaves other errors as they are (a stack overflow is a bug to see)', async () => {
    const src = bytesSource('deep.cpuprofile', 'x');
    const overflow = new RangeError('Maximum call stack size exceeded');
    await expect(importProfile(src, { importers: [refusing(overflow)] })).rejects.toBe(overflow);
  });
});
