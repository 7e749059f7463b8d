/**
 * memlab (Meta's heap analysis library, an implementation independent of Flamelens') as a test
 * oracle: each node's id, type, name, self size and retained size as memlab computes them for a
 * heap snapshot file. Node-only; used by tests and scripts alone.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export interface OracleNodes {
  id: Float64Array;
  type: string[];
  name: string[];
  selfSize: Float64Array;
  retainedSize: Float64Array;
}

interface MemlabNode {
  id: number;
  type: string;
  name: string;
  self_size: number;
  retainedSize: number;
}
interface MemlabSnapshot {
  nodes: { length: number; get(i: number): MemlabNode };
}
interface MemlabCore {
  utils: { getSnapshotFromFile(file: string, options: object): Promise<MemlabSnapshot> };
  config: { muteConsole?: boolean };
  TraceFinder: new () => { calculateAllNodesRetainedSizes(s: MemlabSnapshot): void };
}

/** memlab's view of the snapshot at `path` (gzipped or not). */
export async function memlabNodes(path: string): Promise<OracleNodes> {
  const require = createRequire(import.meta.url);
  const core = require('@memlab/core') as MemlabCore;
  core.config.muteConsole = true;
  const dir = mkdtempSync(join(tmpdir(), 'flamelens-memlab-'));
  try {
    let bytes: Uint8Array = readFileSync(path);
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
    const file = join(dir, 'snapshot.heapsnapshot');
    writeFileSync(file, bytes);
    const snap = await core.utils.getSnapshotFromFile(file, {});
    new core.TraceFinder().calculateAllNodesRetainedSizes(snap);
    const n = snap.nodes.length;
    const out: OracleNodes = {
      id: new Float64Array(n),
      type: [],
      name: [],
      selfSize: new Float64Array(n),
      retainedSize: new Float64Array(n),
    };
    for (let i = 0; i < n; i++) {
      const node = snap.nodes.get(i);
      out.id[i] = node.id;
      out.type.push(node.type);
      out.name.push(node.name);
      out.selfSize[i] = node.self_size;
      out.retainedSize[i] = node.retainedSize;
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
