import { it } from 'vitest';
import { importProfile } from '../import-profile';
import { fileSource, fixturePath } from '../../test/files';
import { checkProfile } from '../../model/integrity';
import { sampleTimeSelf } from '../../model/sample-time';
import { Category } from '../../model/types';

const files = [
  'corpus/speedscope/sample/profiles/Chrome/65/simple.cpuprofile',
  'corpus/speedscope/sample/profiles/Chrome/65/sucrase.cpuprofile',
  'corpus/speedscope/sample/profiles/node/10.11.0/example.cpuprofile',
  'corpus/0x/examples/cpu-profiler/samples-cpu-prof.cpuprofile',
  'corpus/0x/examples/cpu-profiler/samples.cpuprofile',
  'corpus/0x/test/inline-data/exampleCpuProfProfile.cpuprofile.json',
  'corpus/0x/test/inline-data/exampleProfile.cpuprofile.json',
  'samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile',
  'samples/ddtrace/CPU.20261121.233052.6494.0.001.cpuprofile',
  'corpus/speedscope/sample/profiles/Chrome/69/Heap-20181005T144546.heapprofile',
  'corpus/speedscope/sample/profiles/node/10.11.0/Heap-20181003T105432.heapprofile',
  'samples/baseline/Heap.20261121.233010.6213.0.001.heapprofile',
  'samples/ddtrace/Heap.20261121.233100.6609.0.001.heapprofile',
];
it('scratch', async () => {
  for (const f of files) {
    const p = await importProfile(fileSource(fixturePath(f)));
    const w = sampleTimeSelf(p);
    let nonIdle = 0;
    if (w) for (let i = 0; i < p.tree.length; i++) { const fr = p.tree.frame[i]!; if (fr >= 0 && p.frames.name[fr] !== '(idle)') nonIdle += w[i]!; }
    let idleFrames = 0; for (let i = 0; i < p.frames.length; i++) if (p.frames.name[i] === '(idle)') idleFrames++;
    const cats: Record<number, number> = {};
    for (let i = 0; i < p.frames.length; i++) cats[p.frames.category[i]!] = (cats[p.frames.category[i]!] ?? 0) + 1;
    console.log(f.split('/').pop(), p.format, p.unit, 'total', p.tree.total[0], 'frames', p.frames.length, 'idleFrames', idleFrames, 'nodes', p.tree.length, 'samples', p.samples?.length, 'nonIdleUs', nonIdle, JSON.stringify(p.meta), checkProfile(p), JSON.stringify(cats));
  }
});
