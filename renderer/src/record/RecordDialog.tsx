/**
 * *Record…*: the overhead experiment of `flamelens record` from the app. The person types each
 * variant's command (the server started with `PORT` set), the load and what to capture; the host
 * runs it on this machine (the dialog says so) and reports progress; the workspace it wrote opens
 * as the comparison, each pane with its measured figures. What was typed is kept for next time.
 */
import { useEffect, useRef, useState } from 'react';
import { type RecordEvent, type RecordRequest, VARIANT_NAME } from '../../../shared/ipc/contract';
import { Modal } from '../app/Modal';
import { host } from '../host/host';
import { openChosen } from '../import/open';
import { useStore } from '../store/store';
import './record.css';

const STORAGE_KEY = 'flamelens.record-form';

const CAPTURE_LABELS = [
  ['cpu', 'CPU profile (--cpu-prof)'],
  ['trace', 'Trace events'],
  ['heap', 'Heap snapshot after the load'],
  ['perf', 'perf script (where perf may record)'],
] as const;

const DEFAULT_FORM: RecordRequest = {
  out: '',
  variants: [
    { name: 'baseline', command: '' },
    { name: 'agent', command: '' },
  ],
  requests: 10_000,
  connections: 10,
  repeat: 3,
  capture: ['cpu', 'trace'],
};

function savedForm(): RecordRequest {
  try {
    const f = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as RecordRequest | null;
    return f && Array.isArray(f.variants) ? { ...DEFAULT_FORM, ...f } : DEFAULT_FORM;
  } catch {
    return DEFAULT_FORM;
  }
}

/** Why the form cannot start yet, or undefined. */
function notReady(f: RecordRequest): string | undefined {
  const filled = f.variants.filter((v) => v.command.trim() !== '');
  if (filled.length < 2) return 'Give at least two variants a command.';
  if (f.variants.some((v) => v.command.trim() !== '' && !VARIANT_NAME.test(v.name)))
    return 'A variant name is letters, digits, ".", "_" and "-" (it names a folder).';
  return undefined;
}

export function RecordDialog({ onClose }: { onClose(): void }) {
  const [form, setForm] = useState(savedForm);
  const [log, setLog] = useState<string[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [running, setRunning] = useState<AbortController | undefined>();
  const logEnd = useRef<HTMLLIElement>(null);
  useEffect(() => {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(form));
  }, [form]);
  // (scrolling returns a promise in newer browsers: an effect must not return it)
  useEffect(() => {
    void logEnd.current?.scrollIntoView({ block: 'nearest' });
  }, [log]);
  useEffect(() => () => running?.abort(), [running]);

  const set = (patch: Partial<RecordRequest>) => setForm((f) => ({ ...f, ...patch }));
  const setVariant = (i: number, patch: Partial<RecordRequest['variants'][number]>) =>
    set({ variants: form.variants.map((v, j) => (j === i ? { ...v, ...patch } : v)) });
  const blocked = notReady(form);

  const start = () => {
    if (!host.record || blocked) return;
    const abort = new AbortController();
    setRunning(abort);
    setLog([]);
    setError(undefined);
    const req = { ...form, out: form.out.trim(), variants: form.variants.filter((v) => v.command.trim() !== '') };
    const onEvent = (e: RecordEvent) => {
      if ('progress' in e) setLog((l) => [...l, e.progress]);
      else if ('error' in e) setError(e.error);
      else {
        setLog((l) => [...l, ...e.done.summary.split('\n')]);
        if (!e.done.workspace) setError(`Nothing to open: no CPU profile was captured. The files are in ${e.done.out}.`);
        else {
          openChosen([e.done.workspace]);
          useStore
            .getState()
            .noticeShown(`Recorded into ${e.done.out}${e.done.code !== 0 ? ' (a variant failed: see summary.json)' : ''}.`);
          onClose();
        }
      }
    };
    host
      .record(req, onEvent, abort.signal)
      .catch((e: Error) => setError(abort.signal.aborted ? 'The recording was stopped.' : `The recording failed: ${e.message}`))
      .finally(() => setRunning(undefined));
  };

  return (
    <Modal
      className="record-dialog"
      labelledBy="record-title"
      onClose={running ? undefined : onClose}
      onSubmit={(e) => {
        e.preventDefault();
        start();
      }}
    >
      <h2 id="record-title">Record a comparison</h2>
      <p className="record-warning" role="note">
        Flamelens runs the commands below <strong>on this computer, as you</strong>, one after another, each with <code>PORT</code> set to a
        free port; it sends the load to 127.0.0.1 only, and writes into the folder below.
      </p>
      <fieldset disabled={!!running}>
        <legend>Variants (the first is the baseline)</legend>
        {form.variants.map((v, i) => (
          <div className="record-variant" key={i}>
            <input aria-label={`Variant ${i + 1} name`} value={v.name} onChange={(e) => setVariant(i, { name: e.target.value })} />
            <input
              aria-label={`Variant ${i + 1} command`}
              className="record-command"
              placeholder={i === 0 ? 'node server.js' : 'node -r dd-trace/init server.js'}
              value={v.command}
              onChange={(e) => setVariant(i, { command: e.target.value })}
            />
            <button
              type="button"
              aria-label={`Remove variant ${i + 1}`}
              disabled={form.variants.length <= 2}
              onClick={() => set({ variants: form.variants.filter((_, j) => j !== i) })}
            >
              ✕
            </button>
          </div>
        ))}
        <button
          type="button"
          onClick={() => set({ variants: [...form.variants, { name: `variant${form.variants.length}`, command: '' }] })}
        >
          Add a variant
        </button>
      </fieldset>
      <fieldset disabled={!!running} className="record-load">
        <legend>Load</legend>
        <NumberField label="Requests per run" value={form.requests} onChange={(requests) => set({ requests })} />
        <NumberField label="Connections" value={form.connections} onChange={(connections) => set({ connections })} />
        <NumberField label="Timed runs per variant" value={form.repeat} onChange={(repeat) => set({ repeat })} />
      </fieldset>
      <fieldset disabled={!!running} className="record-capture">
        <legend>Captured in one more run of each, apart from the timed runs</legend>
        {CAPTURE_LABELS.map(([id, label]) => (
          <label key={id}>
            <input
              type="checkbox"
              checked={form.capture.includes(id)}
              onChange={(e) => set({ capture: e.target.checked ? [...form.capture, id] : form.capture.filter((c) => c !== id) })}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <label className="record-out">
        Folder (new or empty)
        <input
          disabled={!!running}
          placeholder="a new folder in ~/flamelens-records"
          value={form.out}
          onChange={(e) => set({ out: e.target.value })}
        />
      </label>
      {log.length > 0 && (
        <ol className="record-log" aria-label="Recording progress" aria-live="polite">
          {log.map((line, i) => (
            <li key={i} ref={i === log.length - 1 ? logEnd : undefined}>
              {line}
            </li>
          ))}
        </ol>
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-buttons">
        {!host.record && <span className="muted">Recording needs the Flamelens app or `npm start`.</span>}
        {blocked && !running && <span className="muted">{blocked}</span>}
        {running ? (
          <button type="button" onClick={() => running.abort()}>
            Stop
          </button>
        ) : (
          <>
            <button type="button" onClick={onClose}>
              Close
            </button>
            <button type="submit" disabled={!host.record || !!blocked}>
              Record
            </button>
          </>
        )}
      </div>
    </Modal>
  );
}

function NumberField({ label, value, onChange }: { label: string; value: number; onChange(v: number): void }) {
  return (
    <label>
      {label}
      <input
        type="number"
        min={1}
        step={1}
        value={value}
        onChange={(e) => onChange(Math.max(1, Math.round(Number(e.target.value) || 1)))}
      />
    </label>
  );
}
