/**
 * The page's first script, kept small: it starts importing the files named on the command line
 * (./import/initial-imports), so that their bytes flow while the app's own code (React, the
 * panes, the store: most of the page's script) is fetched, parsed and mounted.
 */
import { startInitialImports } from './import/initial-imports';
import './styles.css';

startInitialImports();

const root = document.getElementById('root')!;
import('./app/mount').then(
  ({ mountApp }) => mountApp(root),
  (e: unknown) => {
    root.textContent = `Flamelens could not load its code (${e instanceof Error ? e.message : String(e)}). Reload the page to try again.`;
  },
);
