import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ErrorBoundary } from './ErrorBoundary';

/** Renders the app into `root`. */
export function mountApp(root: HTMLElement): void {
  createRoot(root).render(
    <StrictMode>
      <ErrorBoundary what="Flamelens">
        <App />
      </ErrorBoundary>
    </StrictMode>,
  );
}
