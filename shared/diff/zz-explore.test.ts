import { it } from 'vitest';
import { importProfile } from '../import/import-profile';
import { fileSource, SAMPLES } from '../test/files';
import { functionStats } from '../view/function-stats';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
it('explore', async () => {
  for (const d of ['baseline', 'ddtrace']) {
    const f = readdirSync(join(SAMPLES, d)).find((x) => x.startsWith('CPU'))!;
    const p = await importProfile(fileSource(join(SAMPLES, d, f)));
    const fs = functionStats(p);
    console.log(d, p.unit, p.tree.length, p.frames.length, p.tree.total[0]);
    const ids = [...fs.keys.keys.keys()].sort((a, b) => fs.self[b]! - fs.self[a]!).slice(0, 15);
    for (const i of ids) console.log('  ', fs.self[i], fs.total[i], JSON.stringify(fs.keys.keys[i]));
    let maxd = 0; for (let i = 0; i < p.tree.length; i++) maxd = Math.max(maxd, p.tree.depth[i]!);
    console.log('maxdepth', maxd, 'dur', (p.meta.endTime! - p.meta.startTime!) / 1000);
  }
});
