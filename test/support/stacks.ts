/**
 * Builds a profile from tiny folded text whose frames carry a file, for algorithm tests that need
 * frame categories: `"main@/srv/app/server-base.js;handler@/srv/app/routes.js 3"`. A frame
 * without `@` has no file (categorized by its name alone, as folded stacks are).
 */
import { CallTreeBuilder, FrameTableBuilder, finishProfile } from '../../shared/model/builders';
import type { Profile } from '../../shared/model/types';

export function stacks(text: string, name = 'test'): Profile {
  const frames = new FrameTableBuilder();
  const tree = new CallTreeBuilder();
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t === '') continue;
    const space = t.lastIndexOf(' ');
    const ids = t
      .slice(0, space)
      .split(';')
      .map((f) => {
        const at = f.indexOf('@');
        return frames.intern(at < 0 ? { name: f } : { name: f.slice(0, at), file: f.slice(at + 1) });
      });
    tree.addStack(ids, Number(t.slice(space + 1)));
  }
  return finishProfile({
    name,
    format: 'folded',
    kind: 'aggregated',
    unit: 'samples',
    frames,
    tree,
    meta: { producer: 'test', warnings: [] },
  });
}
