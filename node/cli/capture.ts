/**
 * For the command line's tests: runs a command with what it writes to standard output and
 * standard error captured instead of printed.
 */
import { vi } from 'vitest';
import { CliError } from './errors';

export interface Captured {
  code: number;
  out: string;
  err: string;
  /** the error the command failed with (`captureFailure` only) */
  error?: Error;
}

async function captured(command: () => Promise<number>, keepErrors: boolean): Promise<Captured> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
  try {
    const code = await command();
    return { code, out, err };
  } catch (error) {
    if (!keepErrors) throw error;
    return { code: error instanceof CliError ? error.status : -1, out, err, error: error as Error };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

/** Runs `command`, capturing its output; an error it throws is thrown on. */
export function capture(command: () => Promise<number>): Promise<Captured> {
  return captured(command, false);
}

/** `capture`, with an error the command throws given back as `error`, and a `CliError`'s status as `code`. */
export function captureFailure(command: () => Promise<number>): Promise<Captured> {
  return captured(command, true);
}
