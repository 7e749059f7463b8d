/** A default file name for a save dialog: the title without characters file systems refuse. */
export function exportFileName(title: string, extension: string): string {
  const base =
    title
      .replace(/[\u0000-\u001f<>:"/\\|?*]+/g, '_')
      .replace(/^[\s.]+|[\s.]+$/g, '')
      .slice(0, 120) || 'flamelens';
  return `${base}.${extension}`;
}
