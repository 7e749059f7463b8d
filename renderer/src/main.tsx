/**
 * The page's first script, kept small: it starts importing the files named on the command line
 * (./import/initial-imports), so that their bytes flow while the app's own code (React, the
 * panes, the store: most of the page's script) is fetched, parsed and mounted. The app's code is
 * asked for once the imports have started: its first run holds the window's thread for ~100 ms,
 * and where it came first the imports started only after it.
 */
import { startInitialImports } from './import/initial-imports';
import './styles.css';

const root = document.getElementById('root')!;
void startInitialImports()
  .catch(() => undefined)
  .then(() => import('./app/mount'))
  .then(
    ({ mountApp }) => mountApp(root),
    (e: unknown) => {
      root.textContent = `Flamelens could not load its code (${e instanceof Error ? e.message : String(e)}). Reload the page to try again.`;
    },
  );
