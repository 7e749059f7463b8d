import { it } from 'vitest';
import { fileSource, fixturePath } from '../../test/files';
import { importProfile } from '../import-profile';
it('dump', async () => {
  const S = fixturePath('corpus/speedscope/sample/profiles');
  for (const f of [`${S}/Chrome/65/simple-timeline.json`, `${S}/Chrome/116/Trace-20230603T221323.json`, `${S}/Chrome/141/no-arg-data.json`, `${S}/Chrome/66/worker.json`, fixturePath('samples/ddtrace/node_trace.1.log.gz')]) {
    const p = await importProfile(fileSource(f));
    const { processNames, threadNames, ...m } = p.meta;
    console.log(f.split('/').slice(-2).join('/'), p.kind, p.tree.length, p.frames.length, JSON.stringify(m, null, 1));
    const t = p.tree;
    const lines: string[] = [];
    for (let i = 1; i < t.length && lines.length < 40; i++) if (t.depth[i]! <= 2) lines.push(`${'  '.repeat(t.depth[i]! - 1)}${p.frames.name[t.frame[i]!]} self=${t.self[i]!.toFixed(0)} total=${t.total[i]!.toFixed(0)}`);
    console.log(lines.join('\n'));
    console.log(p.traceStats!.slice().sort((a, b) => b.bytes - a.bytes).slice(0, 8).map((s) => `${s.phase} ${s.category} ${s.name} n=${s.count} bytes=${s.bytes} dur=${s.duration}`).join('\n'));
  }
}, 300000);
