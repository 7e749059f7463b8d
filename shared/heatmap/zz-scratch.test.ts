import { it } from 'vitest';
import { importProfile } from '../import/import-profile';
import { fileSource, folderSource, fixturePath } from '../test/files';
it('scratch', async () => {
  for (const f of ['corpus/flamescope/examples/perf.test01', 'samples/ddtrace/perf.script.txt', 'samples/baseline/CPU.20261121.233005.6118.0.001.cpuprofile', 'samples/baseline/perf.F999.script.txt.gz', 'samples/baseline/node_trace.1.log.gz']) {
    const p = await importProfile(fileSource(fixturePath(f)));
    const s = p.samples;
    console.log(f, p.format, p.unit, s?.length, s && [s.time[0], s.time[1], s.time[s.length-1], s.weight[0]], p.meta.startTime, p.meta.endTime);
    if (s && s.length < 20) for (let i = 0; i < s.length; i++) { let n = s.node[i]!; const names=[]; while (n>0){names.push(p.frames.name[p.tree.frame[n]!]); n=p.tree.parent[n]!} console.log(s.time[i], names.reverse().join(';').slice(0,200)); }
    if (s) { const leafs = new Map(); for (let i=0;i<s.length;i++){const nm=p.frames.name[p.tree.frame[s.node[i]!]!]; leafs.set(nm,(leafs.get(nm)??0)+1)} console.log([...leafs].sort((a,b)=>b[1]-a[1]).slice(0,5)); }
  }
  const z = await importProfile(folderSource(fixturePath('samples/baseline/0x')));
  console.log('0x', z.format, z.unit, z.samples?.length, z.samples?.time.slice(0,3), z.meta.producer);
});
