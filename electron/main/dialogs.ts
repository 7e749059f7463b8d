/** The native dialogs main shows: open (files or folders), save, and error reports. */
import { type BrowserWindow, type OpenDialogOptions, dialog } from 'electron';
import type { OpenDialogKind } from '../../shared/ipc/contract';

/** Extensions the importers recognise; "All files" stays available (perf output often has none). */
export const PROFILE_EXTENSIONS = [
  'cpuprofile',
  'heapprofile',
  'heapsnapshot',
  'json',
  'log',
  'txt',
  'folded',
  'collapsed',
  'stacks',
  'perf',
  'pb',
  'pprof',
  'gz',
  'html',
  'flamelens',
];

export function openDialogOptions(kind: OpenDialogKind, platform: NodeJS.Platform): OpenDialogOptions {
  if (kind === 'folder') {
    return {
      title: 'Open 0x output folder',
      buttonLabel: 'Open Folder',
      properties: ['openDirectory', 'multiSelections'],
    };
  }
  return {
    title: 'Open profiles',
    // Only macOS can offer files and folders in one dialog.
    properties: platform === 'darwin' ? ['openFile', 'openDirectory', 'multiSelections'] : ['openFile', 'multiSelections'],
    filters: [
      { name: 'Profiles and traces', extensions: PROFILE_EXTENSIONS },
      { name: 'All files', extensions: ['*'] },
    ],
  };
}

/** The chosen paths; [] when cancelled. */
export async function showOpenPaths(win: BrowserWindow | null, kind: OpenDialogKind): Promise<string[]> {
  const options = openDialogOptions(kind, process.platform);
  const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
  return result.canceled ? [] : result.filePaths;
}

/** The chosen path, or null when cancelled. */
export async function showSavePath(
  win: BrowserWindow | null,
  defaultPath: string,
  filters: { name: string; extensions: string[] }[],
): Promise<string | null> {
  const options = { defaultPath, filters, properties: ['createDirectory', 'showOverwriteConfirmation'] as const };
  const result = win
    ? await dialog.showSaveDialog(win, { ...options, properties: [...options.properties] })
    : await dialog.showSaveDialog({ ...options, properties: [...options.properties] });
  return result.canceled || !result.filePath ? null : result.filePath;
}

/** Tells the person which of the files they asked for could not be opened. Does not block. */
export function reportOpenErrors(win: BrowserWindow | null, errors: readonly string[]): void {
  if (errors.length === 0) return;
  const options = {
    type: 'warning' as const,
    message: errors.length === 1 ? 'A file could not be opened' : `${errors.length} files could not be opened`,
    detail: errors.join('\n'),
  };
  void (win ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options));
}
