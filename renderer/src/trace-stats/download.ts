/**
 * Saving an export of the statistics table through the host: a save dialog with an atomic write
 * in Electron, a download in a browser.
 */
import { host } from '../host/host';

export function downloadText(fileName: string, text: string, _mime: string): void {
  const ext = fileName.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1) : 'txt';
  void host.saveFile({ defaultName: fileName, filters: [{ name: ext.toUpperCase(), extensions: [ext] }], data: text });
}
