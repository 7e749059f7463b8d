import { createElement, useEffect, useRef, useState } from 'react';
import { Comparison } from '../comparison/Comparison';
import { NoteDialog } from '../annotate/NoteDialog';
import { ExportDialog } from '../export/ExportDialog';
import { type Recovered, discardRecovery, readRecovery, restoreRecovered, startAutosave } from '../workspace/recovery';
import { recoveryMessage } from '../workspace/recovery-message';
import { saveWorkspace } from '../workspace/workspace-io';
import { HeatmapDialog } from '../heatmap/HeatmapDialog';
import { host } from '../host/host';
import { openChosen, openInitial, openSources, sourcesFromDrop, withDiskPaths } from '../import/open';
import { useStore } from '../store/store';
import { TraceStats } from '../trace-stats/TraceStats';
import { type CommandContext, commandForKey, runCommand } from './commands';
import { RemovedNotice } from './RemovedNotice';
import { ShortcutsDialog } from './ShortcutsDialog';
import { ErrorBoundary } from './ErrorBoundary';
import { dialogOpen } from './dialog-escape';
import { Toolbar } from './Toolbar';
import { ViewPanel, ViewTabs } from './ViewTabs';
import { SandwichView } from '../sandwich/SandwichView';
import { HeapView } from '../heap/HeapView';
import { RecordDialog } from '../record/RecordDialog';
import { TimeOrderView } from '../timeorder/TimeOrderView';
import { activePaneId, focusPaneBy } from '../comparison/pane-focus';

/** Whether a key press belongs to a text field rather than to the app's shortcuts. */
function typing(ev: KeyboardEvent): boolean {
  const t = ev.target as HTMLElement | null;
  return !!t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
}

const VIEW_NAMES = {
  flamegraphs: 'The comparison',
  sandwich: 'The sandwich view',
  heap: 'The heap view',
  'trace-stats': 'The trace statistics',
  'time-order': 'The time-order view',
} as const;

const VIEWS = { flamegraphs: Comparison, sandwich: SandwichView, heap: HeapView, 'trace-stats': TraceStats, 'time-order': TimeOrderView };

export function App() {
  // Only whether there are runs: the whole app does not render again as a file's bytes arrive.
  const empty = useStore((s) => s.runs.length === 0);
  const notice = useStore((s) => s.notice);
  const [dragging, setDragging] = useState(false);
  const view = useStore((s) => s.appView);
  const setView = useStore((s) => s.appViewChosen);
  const [exporting, setExporting] = useState(false);
  const [shortcuts, setShortcuts] = useState(false);
  const [recording, setRecording] = useState(false);
  const [recovered, setRecovered] = useState<Recovered | undefined>(undefined);
  const recoveryDecided = useRef<() => void>(() => {});
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  const open = () => {
    if (host.openDialog) void host.openDialog('files').then(openChosen);
    else fileInput.current?.click();
  };
  const openFolder = () => {
    if (host.openDialog) void host.openDialog('folder').then(openChosen);
    else folderInput.current?.click();
  };

  useEffect(() => {
    const initial = new Set<string>();
    let stopAutosave = () => {};
    const autosave = () => (stopAutosave = startAutosave((id) => initial.has(id)));
    void (async () => {
      // The files named on the command line are importing already (../import/initial-imports).
      for (const id of await openInitial()) initial.add(id);
      const rec = await readRecovery();
      // Work left from last time is offered back; autosave starts once the person decided.
      if (rec?.userMade) setRecovered(rec);
      else autosave();
    })();
    recoveryDecided.current = autosave;
    const ctx: CommandContext = {
      open,
      openFolder,
      save: () => void saveWorkspace().catch((e: Error) => useStore.getState().noticeShown(`Saving failed: ${e.message}`)),
      exportPicture: () => setExporting(true),
      focusSearch: () => searchRef.current?.focus(),
      showShortcuts: () => setShortcuts(true),
      record: () => host.record && setRecording(true),
      showView: (v) => useStore.getState().appViewChosen(v),
      activePaneId,
      focusPaneBy,
    };
    const offMenu = host.onMenuCommand((cmd) => runCommand(cmd, ctx));
    const offOpen = host.onOpenItems(openChosen);
    const onKey = (ev: KeyboardEvent) => {
      const press = { key: ev.key, mod: ev.ctrlKey || ev.metaKey, shift: ev.shiftKey };
      const command = commandForKey(press, typing(ev) || dialogOpen());
      if (!command) return;
      ev.preventDefault();
      command.run(ctx);
    };
    window.addEventListener('keydown', onKey);
    return () => {
      stopAutosave();
      offMenu();
      offOpen();
      window.removeEventListener('keydown', onKey);
    };
  }, []);

  return (
    <div
      className="app"
      onDragOver={(e) => {
        if (![...e.dataTransfer.types].includes('Files')) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target || !e.currentTarget.contains(e.relatedTarget as Node)) setDragging(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        // Read the drop now: its items are gone once this handler returns.
        const dropped = sourcesFromDrop(e.dataTransfer);
        const paths = host.registerDropped([...e.dataTransfer.files]);
        void Promise.all([dropped, paths]).then(([sources, full]) => openSources(withDiskPaths(sources, full)));
      }}
    >
      <Toolbar onOpen={open} onOpenFolder={openFolder} onExport={() => setExporting(true)} searchRef={searchRef} />
      {recovered && (
        <div className="notice recovery" role="alert">
          <span>{recoveryMessage(recovered, new Date(recovered.savedAt).toLocaleString())}</span>
          <span>
            <button
              type="button"
              onClick={() => {
                const r = recovered;
                setRecovered(undefined);
                void restoreRecovered(r).then((missing) => {
                  if (missing) useStore.getState().noticeShown(missing);
                  recoveryDecided.current();
                });
              }}
            >
              Restore
            </button>{' '}
            <button
              type="button"
              onClick={() => {
                setRecovered(undefined);
                void discardRecovery().then(() => recoveryDecided.current());
              }}
            >
              Discard
            </button>
          </span>
        </div>
      )}
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        aria-label="Open profile files"
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          openSources(files.map((file) => ({ kind: 'file' as const, file, name: file.name })));
          e.currentTarget.value = '';
        }}
      />
      <input
        ref={folderInput}
        type="file"
        hidden
        aria-label="Open a 0x output folder"
        {...({ webkitdirectory: '' } as Record<string, string>)}
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          // Only the folder's own files: a 0x folder is flat.
          const top = files.filter((f) => f.webkitRelativePath.split('/').length === 2);
          const name = top[0]?.webkitRelativePath.split('/')[0] ?? 'folder';
          if (top.length > 0)
            openSources([
              {
                kind: 'folder',
                name,
                path: name,
                files: top.map((file) => ({ kind: 'file' as const, file, name: file.name, path: file.webkitRelativePath })),
              },
            ]);
          e.currentTarget.value = '';
        }}
      />
      {notice && (
        <div className="notice" role="status">
          {notice}
          <button type="button" aria-label="Dismiss" onClick={() => useStore.getState().noticeShown(undefined)}>
            ✕
          </button>
        </div>
      )}
      <RemovedNotice />
      {empty ? (
        <div className="empty">
          <h1>Compare profiles side by side</h1>
          <p>
            Drop a baseline and one or more agent runs here — <code>.cpuprofile</code>, trace events, <code>perf script</code>, folded
            stacks, 0x folders, <code>.heapprofile</code>, pprof — or{' '}
            <button type="button" className="link" onClick={open}>
              open files
            </button>
            .
          </p>
          {host.record && (
            <p>
              Or let Flamelens run the experiment:{' '}
              <button type="button" className="link" onClick={() => setRecording(true)}>
                record a comparison
              </button>{' '}
              — each variant of your server started, loaded, timed and profiled in turn.
            </p>
          )}
        </div>
      ) : (
        <>
          <ViewTabs view={view} onChange={setView} />
          <ViewPanel view={view}>
            <ErrorBoundary what={VIEW_NAMES[view]} resetKey={view}>
              {createElement(VIEWS[view])}
            </ErrorBoundary>
          </ViewPanel>
        </>
      )}
      <ErrorBoundary what="The heatmap" dialog onClose={() => useStore.getState().heatmapOpened(undefined)}>
        <HeatmapDialog />
      </ErrorBoundary>
      <ErrorBoundary what="The note dialog" dialog onClose={() => useStore.getState().draftStarted(undefined)}>
        <NoteDialog />
      </ErrorBoundary>
      {exporting && (
        <ErrorBoundary what="The export dialog" dialog onClose={() => setExporting(false)}>
          <ExportDialog onClose={() => setExporting(false)} />
        </ErrorBoundary>
      )}
      {shortcuts && (
        <ErrorBoundary what="The shortcuts" dialog onClose={() => setShortcuts(false)}>
          <ShortcutsDialog onClose={() => setShortcuts(false)} />
        </ErrorBoundary>
      )}
      {recording && (
        <ErrorBoundary what="The record dialog" dialog onClose={() => setRecording(false)}>
          <RecordDialog onClose={() => setRecording(false)} />
        </ErrorBoundary>
      )}
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          Drop profiles to compare
        </div>
      )}
    </div>
  );
}
