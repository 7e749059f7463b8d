import { ALL_THREADS, THREADS_TOGETHER, threadKey, threadLabel } from '../../../shared/model/threads';
import type { Profile, ThreadInfo } from '../../../shared/model/types';
import type { Run } from '../store/runs-slice';
import { useStore } from '../store/store';

/** `CrRendererMain 71044/259 · 16,881 samples · 4.2 s` */
function optionText(t: ThreadInfo): string {
  const ids = t.pid === '' ? t.tid : `${t.pid}/${t.tid}`;
  return `${t.name || 'thread'} ${ids} · ${t.samples.toLocaleString('en-US')} samples · ${t.seconds.toFixed(1)} s`;
}

/** Why a run whose file has several threads cannot show another one. */
const FIXED = 'this run holds only the samples shown (it was saved without the other threads): open the file again to pick another';

/**
 * Which thread of the run's file the pane shows, where the file has samples of several: each
 * thread (name, ids, samples, seconds) or all of them, each under a root frame of its own. The
 * run keeps every thread (`Run.allThreads`), so a choice needs no file; a run that kept one
 * thread shows the control disabled, saying why.
 */
export function ThreadPicker({ run, profile }: { run: Run; profile: Profile }) {
  const threads = run.allThreads?.meta.threads ?? profile.meta.threads ?? [];
  if (threads.length < 2) return null;
  const perf = profile.format === 'perf-script';
  const shown = run.thread ?? (profile.meta.thread?.startsWith('all ') ? (perf ? THREADS_TOGETHER : ALL_THREADS) : threadKey(threads[0]!));
  const fixed = run.allThreads ? undefined : FIXED;
  return (
    <label className="thread-picker" title={fixed ?? 'which thread of the file this pane shows'}>
      <span>{threads.length} threads</span>
      <select
        aria-label={`Thread of ${run.title}`}
        value={shown}
        disabled={fixed !== undefined}
        onChange={(e) => useStore.getState().threadChosen(run.id, e.target.value)}
      >
        {threads.map((t) => (
          <option key={threadKey(t)} value={threadKey(t)}>
            {optionText(t)}
          </option>
        ))}
        {perf && <option value={THREADS_TOGETHER}>all threads together</option>}
        <option value={ALL_THREADS}>all threads, each under its own root</option>
      </select>
      <span className="muted">
        {shown === ALL_THREADS || shown === THREADS_TOGETHER
          ? `all ${threads.length} threads`
          : `${profile.meta.thread ?? threadLabel(threads[0]!)}, 1 of ${threads.length} threads with samples`}
      </span>
    </label>
  );
}
