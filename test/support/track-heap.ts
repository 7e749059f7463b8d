/**
 * A real heap snapshot with allocation stacks: a small Node.js program run with
 * `--track-heap-objects` that allocates from two functions of its own and writes a snapshot
 * (`v8.writeHeapSnapshot`). Returns the snapshot's path in `dir`.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PROGRAM = `
const v8 = require('v8');
class Session { constructor(i) { this.id = i; this.data = new Array(20).fill(i); } }
const keep = [];
function makeSessions() { for (let i = 0; i < 500; i++) keep.push(new Session(i)); }
function makeNames() { for (let i = 0; i < 300; i++) keep.push('name-' + i + '-'.repeat(i % 7)); }
makeSessions();
makeNames();
v8.writeHeapSnapshot(process.argv[2]);
`;

export function trackedSnapshot(dir: string): string {
  const program = join(dir, 'allocate.js');
  const out = join(dir, 'tracked.heapsnapshot');
  writeFileSync(program, PROGRAM);
  execFileSync(process.execPath, ['--track-heap-objects', program, out], { stdio: 'pipe' });
  return out;
}
