import type { FormEvent, ReactNode } from 'react';
import { useEscapeCloses } from './dialog-escape';

/**
 * A dialog over the app: a backdrop that closes it when clicked, the dialog itself (a form when
 * it submits), and Esc closing it while it is the dialog on top.
 */
export function Modal({
  className,
  label,
  labelledBy,
  onClose,
  onSubmit,
  children,
}: {
  className: string;
  /** the dialog's accessible name, or the id of the heading that names it */
  label?: string;
  labelledBy?: string;
  /** absent: the dialog can only be left by what it offers */
  onClose: (() => void) | undefined;
  onSubmit?: (e: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  const props = {
    className,
    role: 'dialog',
    'aria-modal': true,
    'aria-label': label,
    'aria-labelledby': labelledBy,
    onClick: (e: { stopPropagation(): void }) => e.stopPropagation(),
  } as const;
  return (
    <div className="modal-backdrop" onClick={onClose}>
      {onSubmit ? (
        <form {...props} onSubmit={onSubmit}>
          {children}
        </form>
      ) : (
        <div {...props}>{children}</div>
      )}
      {onClose && <EscapeCloses close={onClose} />}
    </div>
  );
}

function EscapeCloses({ close }: { close: () => void }) {
  useEscapeCloses(close);
  return null;
}
