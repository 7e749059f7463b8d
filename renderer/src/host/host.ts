/**
 * What the renderer needs from its host: the Electron preload bridge (`window.flamelens`) or,
 * in a plain browser, the local server started by `npm start` / `flamelens open`. Both expose the
 * same `FlamelensApi` shapes (shared/ipc/contract.ts).
 */
import {
  type ChosenItem,
  type FlamelensApi,
  MAX_CHUNK,
  type MenuCommand,
  type OpenDialogKind,
  type RecordEvent,
  type RecordRequest,
  type SaveRequest,
} from '../../../shared/ipc/contract';

/** What the renderer saves: a host's request, or a Blob (a workspace file a worker encoded, possibly larger than memory). */
export type HostSaveRequest = Omit<SaveRequest, 'data'> & { data: SaveRequest['data'] | Blob };

export interface Host {
  kind: 'electron' | 'web';
  initialItems(): Promise<ChosenItem[]>;
  readFileChunk(token: string, offset: number, length: number): Promise<Uint8Array>;
  /**
   * An address an import worker can fetch the whole file from, streamed, where the host serves
   * one (the local server's `/api/stream/`, Electron's `flamelens://app/api/stream/`); otherwise,
   * or where that fetch fails, the worker reads through `readFileChunk`.
   */
  fileUrl?: (token: string) => string;
  /**
   * Where the host serves a chosen file parsed (the local server's `/api/parsed/`: a profile
   * block instead of the file's bytes, shared/workspace/parsed-profile), where it can; a worker
   * whose file is not parsed there reads it through `fileUrl`.
   */
  parsedUrl?: (token: string) => string;
  /** native open dialog, where there is one */
  openDialog?: (kind: OpenDialogKind) => Promise<ChosenItem[]>;
  /**
   * tells the host which files were dropped (for File › Open Recent); resolves with their full
   * paths where the host can see them (Electron), '' where not (a browser)
   */
  registerDropped(files: File[]): Promise<string[]>;
  /**
   * Saves bytes or text: a save dialog and an atomic write in Electron, a download in a browser.
   * Resolves with where it went (null when cancelled); rejects with the reason a write failed.
   */
  saveFile(req: HostSaveRequest): Promise<string | null>;
  onMenuCommand(cb: (cmd: MenuCommand) => void): () => void;
  onOpenItems(cb: (items: ChosenItem[]) => void): () => void;
  /**
   * Runs a recording (`flamelens record`) on this machine, where the host can (the local server;
   * not a page opened from files): each event as it comes; resolves when it has ended. Aborting
   * `signal` cancels it.
   */
  record?: (req: RecordRequest, onEvent: (e: RecordEvent) => void, signal: AbortSignal) => Promise<void>;
}

declare global {
  interface Window {
    flamelens?: FlamelensApi;
  }
}

/** Where the host serves a chosen file, relative to the page: `stream`, whole (the local server and Electron's app protocol alike); `parsed`, parsed (the local server). */
const fileApiUrl = (route: 'stream' | 'parsed') => (token: string) =>
  new URL(`./api/${route}/${encodeURIComponent(token)}`, document.baseURI).href;
const streamUrl = fileApiUrl('stream');

function electronHost(api: FlamelensApi): Host {
  return {
    kind: 'electron',
    initialItems: () => api.initialItems(),
    readFileChunk: (t, o, l) => api.readFileChunk(t, o, l),
    // main serves a chosen file whole at flamelens://app/api/stream/<token>; a worker that cannot
    // fetch it reads through readFileChunk instead (worker-bytes.ts)
    fileUrl: streamUrl,
    openDialog: (kind) => api.openDialog(kind),
    registerDropped: (files) => api.registerDropped(files).catch(() => files.map(() => '')),
    saveFile: (req) =>
      req.data instanceof Blob ? saveInPieces(api, { ...req, data: req.data }) : api.saveFile({ ...req, data: req.data }),
    onMenuCommand: (cb) => api.onMenuCommand(cb),
    onOpenItems: (cb) => api.onOpenItems(cb),
    record: (req, onEvent, signal) => recordThroughMain(api, req, onEvent, signal),
  };
}

/** A recording by Electron's main process: its events fetched as they come until the last. */
async function recordThroughMain(api: FlamelensApi, req: RecordRequest, onEvent: (e: RecordEvent) => void, signal: AbortSignal) {
  const id = await api.recordStart(req);
  const stop = () => void api.recordStop(id).catch(() => undefined);
  signal.addEventListener('abort', stop);
  try {
    for (;;) {
      const events = await api.recordNext(id);
      for (const e of events) onEvent(e);
      if (events.some((e) => 'done' in e || 'error' in e)) return;
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/**
 * A Blob (a workspace file of any size) saved through the host a piece at a time: no piece larger
 * than MAX_CHUNK crosses the bridge, and the file appears only once all of it is written.
 */
async function saveInPieces(api: FlamelensApi, req: Omit<SaveRequest, 'data'> & { data: Blob }): Promise<string | null> {
  const id = await api.saveBegin({ defaultName: req.defaultName, filters: req.filters });
  if (id === null) return null;
  try {
    for (let at = 0; at < req.data.size; at += MAX_CHUNK)
      await api.saveWrite(id, new Uint8Array(await req.data.slice(at, at + MAX_CHUNK).arrayBuffer()));
  } catch (e) {
    await api.saveEnd(id, false).catch(() => undefined);
    throw e;
  }
  return api.saveEnd(id, true);
}

function webHost(): Host {
  return {
    kind: 'web',
    async initialItems() {
      try {
        const res = await fetch('./api/initial-items');
        if (!res.ok) return [];
        return (await res.json()) as ChosenItem[];
      } catch {
        return []; // opened as static files: nothing to preload
      }
    },
    fileUrl: streamUrl,
    parsedUrl: fileApiUrl('parsed'),
    async readFileChunk(token, offset, length) {
      const res = await fetch(`./api/files/${encodeURIComponent(token)}?offset=${offset}&length=${length}`);
      if (!res.ok) throw new Error(`reading the file failed (HTTP ${res.status})`);
      return new Uint8Array(await res.arrayBuffer());
    },
    registerDropped: async (files) => files.map(() => ''),
    async saveFile(req) {
      const type = req.filters[0]?.extensions[0] === 'svg' ? 'image/svg+xml' : 'application/octet-stream';
      const blob = new Blob([req.data as BlobPart], { type });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = req.defaultName;
      // Clicked without joining the document: adding and removing it would restyle the whole
      // page, which with several big flamegraphs is a long task.
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      return req.defaultName;
    },
    onMenuCommand: () => () => {},
    onOpenItems: () => () => {},
    record: recordThroughServer,
  };
}

/** A recording by the local server: its answer is one JSON event per line, read as it arrives. */
async function recordThroughServer(req: RecordRequest, onEvent: (e: RecordEvent) => void, signal: AbortSignal): Promise<void> {
  const res = await fetch('./api/record', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(req),
    signal,
  });
  if (!res.ok || !res.body)
    return onEvent({ error: (await res.text().catch(() => '')) || `the recording was refused (HTTP ${res.status})` });
  const lines = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  for (;;) {
    const { value, done } = await lines.read();
    if (done) break;
    const parts = (rest + value).split('\n');
    rest = parts.pop()!;
    for (const p of parts) if (p) onEvent(JSON.parse(p) as RecordEvent);
  }
}

export const host: Host = window.flamelens ? electronHost(window.flamelens) : webHost();
