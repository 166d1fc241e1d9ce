/**
 * A modal dialog: focus moves in and stays in (Tab wraps), Escape closes, and focus
 * returns to where it was. Built on a plain element rather than <dialog> so that it
 * behaves the same in every browser and in test DOMs.
 */
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from "react";
import { usePart } from "./parts.js";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface DialogProps {
  title: ReactNode;
  description?: ReactNode;
  onClose: () => void;
  children?: ReactNode;
}

export function Dialog({ title, description, onClose, children }: DialogProps) {
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const overlayPart = usePart("dialog-overlay");
  const panelPart = usePart("dialog");
  const titlePart = usePart("dialog-title");
  const descriptionPart = usePart("dialog-description");

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel.current)?.focus();
    return () => previous?.focus?.();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== "Tab" || !panel.current) return;
    const focusable = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div {...overlayPart}>
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        {...panelPart}
      >
        <h2 id={titleId} {...titlePart}>
          {title}
        </h2>
        {description ? (
          <p id={descriptionId} {...descriptionPart}>
            {description}
          </p>
        ) : null}
        {children}
      </div>
    </div>
  );
}
