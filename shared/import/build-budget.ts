/**
 * Each import's build budget (model/budget.ts), measured against the bytes its importer has
 * taken from the source: the source is wrapped to count them.
 */
import { BUILD_BYTES_PER_BYTE, BUILD_FLOOR_BYTES, BuildBudget } from '../model/budget';
import { ImportError } from './errors';
import type { OpenedSource } from './io/source';

/** How much an import may build: `perByte` for every byte read, beyond `floor` bytes. */
export interface BudgetLimits {
  perByte: number;
  floor: number;
}

export const DEFAULT_LIMITS: BudgetLimits = { perByte: BUILD_BYTES_PER_BYTE, floor: BUILD_FLOOR_BYTES };

/** `source`, counting what is read from it, and the budget of the import of `file` that reads it. */
export function budgeted(
  source: OpenedSource,
  file: string,
  limits: BudgetLimits = DEFAULT_LIMITS,
): { source: OpenedSource; budget: BuildBudget } {
  let read = 0;
  const counted: OpenedSource = {
    ...source,
    chunks() {
      const inner = source.chunks();
      return (async function* () {
        for await (const chunk of inner) {
          read += chunk.length;
          yield chunk;
        }
      })();
    },
  };
  const readInto = source.readInto;
  if (readInto)
    counted.readInto = (into) => {
      const n = readInto.call(source, into);
      read += n;
      return n;
    };
  const budget = new BuildBudget(
    () => read,
    (message) => new ImportError({ file, message }),
    limits.perByte,
    limits.floor,
  );
  return { source: counted, budget };
}
