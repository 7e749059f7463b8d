import { useState } from 'react';
import { rankFunctions } from '../../../shared/diff/diff-query';
import { host } from '../host/host';
import { comparedProfile, diffFor, rangeFor } from '../store/derived';
import { repeatsFor } from '../store/derived-repeats';
import { baselineKind, baselineRunOf } from '../store/compared-with';
import { useStore } from '../store/store';
import { diffTableCsv, diffTableMarkdown, foldedText } from './data-export';
import { exportFileName } from '../host/file-name';
import { PictureSection } from './PictureSection';
import { Modal } from '../app/Modal';

/**
 * Export: the annotated comparison as PNG (a preset size, or 1x/2x/3x of a width) or SVG, or copied to the clipboard; and
 * data — folded stacks of a run (within its time range) and the diff table as CSV or Markdown.
 */
export function ExportDialog({ onClose }: { onClose(): void }) {
  const allRuns = useStore((s) => s.runs);
  const runs = allRuns.filter((r) => r.status === 'ready');
  const baselineId = useStore((s) => s.baselineId);
  const [runId, setRunId] = useState(runs.find((r) => r.id !== baselineId)?.id ?? runs[0]?.id ?? '');
  const [status, setStatus] = useState('');
  const run = runs.find((r) => r.id === runId);
  // a baseline (the baseline, or the baseline of its format) has no diff table of its own
  const isBaseline = run !== undefined && baselineKind({ runs: allRuns, baselineId }, run.id) !== undefined;

  const act = (label: string, fn: () => Promise<string | null | void>) => async () => {
    setStatus(`${label}…`);
    try {
      const where = await fn();
      setStatus(where === null ? 'Cancelled.' : `${label}: done${typeof where === 'string' ? ` (${where})` : ''}.`);
    } catch (e) {
      setStatus(`${label} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const saveFolded = act('Folded stacks', async () => {
    const s = useStore.getState();
    const p = run!.profile!;
    const rw = rangeFor(p, s.ranges[run!.id]);
    return host.saveFile({
      defaultName: exportFileName(run!.title, 'folded'),
      filters: [{ name: 'Folded stacks', extensions: ['folded', 'txt'] }],
      data: foldedText(p, rw?.self),
    });
  });
  const saveDiff = (kind: 'csv' | 'md') =>
    act(`Diff table (${kind})`, async () => {
      const s = useStore.getState();
      const base = run && baselineRunOf(s, run.id);
      if (!base?.profile || !run?.profile) throw new Error('choose a run other than the baseline');
      const compared = comparedProfile(run.profile, base.profile, s.matchEntry);
      const res = diffFor(
        base.profile,
        compared,
        s.normalize,
        s.noisePercent,
        rangeFor(base.profile, s.ranges[base.id]),
        rangeFor(compared, s.ranges[run.id]),
      );
      if (!res.diff) throw new Error(res.error ?? 'no diff');
      const rows = rankFunctions(res.diff, { by: s.diffMeasure });
      const across = repeatsFor(base, run, s.normalize, s.diffMeasure, s.matchEntry);
      const repeats = across && { stats: across.stats, byKey: across.byKey, measure: s.diffMeasure };
      const data =
        kind === 'csv'
          ? diffTableCsv(res.diff, rows, repeats)
          : diffTableMarkdown(res.diff, rows, { baseline: base.title, run: run.title }, repeats);
      return host.saveFile({
        defaultName: exportFileName(`${run.title} diff`, kind),
        filters: [{ name: kind === 'csv' ? 'CSV' : 'Markdown', extensions: [kind] }],
        data,
      });
    });

  return (
    <Modal className="export-dialog" label="Export" onClose={onClose}>
      <header>
        <h2>Export</h2>
        <span className="spacer" />
        <button type="button" aria-label="Close export" onClick={onClose}>
          ✕
        </button>
      </header>
      <PictureSection act={act} />
      <section>
        <h3>Data</h3>
        <label>
          run
          <select aria-label="Run to export" value={runId} onChange={(e) => setRunId(e.currentTarget.value)}>
            {runs.map((r) => (
              <option key={r.id} value={r.id}>
                {r.title}
              </option>
            ))}
          </select>
        </label>
        <div className="dialog-buttons">
          <button type="button" disabled={!run} onClick={saveFolded}>
            Folded stacks
          </button>
          <button type="button" disabled={!run || isBaseline} onClick={saveDiff('csv')}>
            Diff table CSV
          </button>
          <button type="button" disabled={!run || isBaseline} onClick={saveDiff('md')}>
            Diff table Markdown
          </button>
        </div>
        <p className="muted">Trace statistics have their own CSV and Markdown export in the Trace statistics view.</p>
      </section>
      <footer role="status">{status}</footer>
    </Modal>
  );
}
