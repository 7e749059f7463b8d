/**
 * The shortcuts overlay (`?`, and Help → About in the native menu): every command of the table in
 * commands.ts with its keys, and the app's version.
 */
import { COMMANDS } from './commands';
import { APP_VERSION } from './version';
import { Modal } from './Modal';

export function ShortcutsDialog({ onClose }: { onClose(): void }) {
  const rows = COMMANDS.filter((c) => c.keys.length > 0);
  return (
    <Modal className="shortcuts-dialog" labelledBy="shortcuts-title" onClose={onClose}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <table>
        <tbody>
          {rows.map((c) => (
            <tr key={c.id}>
              <td>
                {c.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && ' or '}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </td>
              <td>{c.label}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">Ctrl is ⌘ on a Mac. Single keys work while no text field has the keyboard. Flamelens {APP_VERSION}.</p>
      <div className="dialog-buttons">
        <button type="button" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </Modal>
  );
}
