import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Modal } from './Modal';

interface Props {
  /** what failed, as the person knows it: "The pane of baseline", "The export dialog" */
  what: string;
  /** a dialog's fallback is a dialog too, closed by its close button and Esc */
  dialog?: boolean;
  /** closes the failed part (a dialog); without it only "Try again" is offered */
  onClose?: () => void;
  /** when this changes, a failed part is tried again (another run, another view) */
  resetKey?: unknown;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/**
 * Keeps a failure where it happened: a pane or dialog that throws while rendering shows what
 * went wrong, with a way to try again or close it, and the rest of the window keeps working.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`${this.props.what} failed:`, error, info.componentStack);
  }

  override componentDidUpdate(prev: Props): void {
    if (this.state.error && prev.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    const retry = () => this.setState({ error: null });
    const { what, dialog } = this.props;
    const close = this.props.onClose;
    const onClose = close
      ? () => {
          this.setState({ error: null });
          close();
        }
      : undefined;
    const body = <Failure what={what} error={error} onRetry={retry} onClose={onClose} />;
    if (!dialog) return body;
    return (
      <Modal className="failure-dialog" label={`${what} failed`} onClose={onClose}>
        {body}
      </Modal>
    );
  }
}

function Failure({ what, error, onRetry, onClose }: { what: string; error: Error; onRetry(): void; onClose: (() => void) | undefined }) {
  return (
    <div className="failure" role="alert">
      <strong>{what} failed.</strong>
      <code className="failure-message">
        {error.name}: {error.message}
      </code>
      <p className="muted">Nothing else is affected: the rest of the window works, and your runs and notes are kept.</p>
      <div className="dialog-buttons">
        <button type="button" onClick={onRetry}>
          Try again
        </button>
        {onClose && (
          <button type="button" onClick={onClose}>
            Close
          </button>
        )}
      </div>
    </div>
  );
}
