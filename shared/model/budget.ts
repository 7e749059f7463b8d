/**
 * What an import may build for the bytes it has read. A profile's model is a few times smaller or
 * larger than its file, never much larger: a crafted file can make it so (a pprof sample naming a
 * location of a thousand inlined lines a million times, a folded line of a million one-letter
 * frames), and then the import would grow until the process dies. The builders and their growing
 * columns charge what they allocate here; past `floor + perByte × bytes read` the import ends
 * with an error naming the file and the budget. Allocations the system refuses end the same way
 * instead of as a crash.
 */

/** Bytes an import may build for every byte it has read (real files build 0.5–3 per byte). */
export const BUILD_BYTES_PER_BYTE = 16;
/** What any import may build whatever it has read: small files with big trees (64 MiB). */
export const BUILD_FLOOR_BYTES = 64 * 2 ** 20;

export class BuildBudget {
  private used = 0;

  constructor(
    /** bytes of the file the import has read so far (decompressed) */
    private readonly bytesRead: () => number,
    /** the error an import ends with, from what to tell the user */
    private readonly fail: (message: string) => Error,
    private readonly perByte = BUILD_BYTES_PER_BYTE,
    private readonly floor = BUILD_FLOOR_BYTES,
  ) {}

  /** Bytes built so far. */
  get charged(): number {
    return this.used;
  }

  /** Adds `bytes` built; throws when the import is past its budget. */
  charge(bytes: number): void {
    this.used += bytes;
    if (this.used <= this.floor) return;
    const read = this.bytesRead();
    if (this.used > this.floor + this.perByte * read)
      throw this.fail(
        `the profile would take more memory than any profile of its size needs (${mb(this.used)} built from ${mb(read)} read; ` +
          `the budget is ${mb(this.floor)} plus ${this.perByte} bytes per byte read): a file crafted to exhaust memory, or a bug`,
      );
  }

  /** An allocation the system refused (a typed array past what it can give). */
  refused(bytes: number): Error {
    return this.fail(
      `the profile needs more memory than this process can have (an array of ${mb(bytes)} was refused, ${mb(this.used)} built)`,
    );
  }
}

/** A size as a message gives it: `20 KiB`, `1.5 MiB`, `80 MiB`. */
function mb(bytes: number): string {
  if (bytes < 2 ** 20) return `${Math.ceil(bytes / 1024)} KiB`;
  return `${(bytes / 2 ** 20).toFixed(bytes < 10 * 2 ** 20 ? 1 : 0)} MiB`;
}

/**
 * `make()`, charged to `budget` as `bytes` (when there is one): a refused allocation becomes the
 * budget's error.
 */
export function allocate<T>(budget: BuildBudget | undefined, bytes: number, make: () => T): T {
  if (!budget) return make();
  budget.charge(bytes);
  try {
    return make();
  } catch (e) {
    if (e instanceof RangeError) throw budget.refused(bytes);
    throw e;
  }
}
