/** What a workspace file is called: small enough for the page's first script (renderer/src/import/initial-imports.ts). */
export const WORKSPACE_EXTENSION = 'flamelens';

export function isWorkspaceFileName(name: string): boolean {
  return name.toLowerCase().endsWith(`.${WORKSPACE_EXTENSION}`);
}
