/**
 * A dialog that asks before a step that cannot be undone (remove, decline, leave...):
 * what happens, a way back and a danger button that carries it out.
 */
import type { ReactNode } from "react";
import type { AuthError } from "../client/request.js";
import { useErrorText, useMessages } from "../hooks/use-messages.js";
import { Alert } from "./alert.js";
import { Dialog } from "./dialog.js";
import { Button, Footer } from "./elements.js";

export interface ConfirmDialogProps {
  title: ReactNode;
  description?: ReactNode;
  confirmLabel: ReactNode;
  /** The way back's label; "Cancel" by default. */
  cancelLabel?: ReactNode;
  onConfirm: () => unknown;
  /** Closes without doing anything: the way back, Escape. */
  onCancel: () => void;
  pending?: boolean;
  /**
   * The failure of the last try, null while there is none. Left out, the dialog has no
   * alert of its own, for steps whose failure the page around it reports.
   */
  error?: AuthError | null;
}

export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  pending,
  error,
}: ConfirmDialogProps) {
  const { common } = useMessages();
  const errorText = useErrorText();
  return (
    <Dialog title={title} description={description} onClose={onCancel}>
      {error === undefined ? null : <Alert>{error ? errorText(error) : null}</Alert>}
      <Footer>
        <Button variant="secondary" onClick={onCancel}>
          {cancelLabel ?? common.cancel}
        </Button>
        <Button variant="danger" pending={pending} onClick={() => void onConfirm()}>
          {confirmLabel}
        </Button>
      </Footer>
    </Dialog>
  );
}
