import { forwardRef, type ReactNode } from "react";
import { usePart } from "./parts.js";

export interface AlertProps {
  tone?: "error" | "success" | "info";
  children?: ReactNode;
}

/**
 * A message about the whole form. It is always in the page (empty when quiet) so that
 * screen readers announce what appears in it; errors interrupt, other news waits.
 */
export const Alert = forwardRef<HTMLDivElement, AlertProps>(function Alert(
  { tone = "error", children },
  ref,
) {
  const part = usePart("alert");
  const empty =
    children === null || children === undefined || children === false || children === "";
  return (
    <div
      ref={ref}
      role={tone === "error" ? "alert" : "status"}
      aria-live={tone === "error" ? "assertive" : "polite"}
      tabIndex={-1}
      data-tone={tone}
      data-state={empty ? "empty" : "shown"}
      {...part}
    >
      {children}
    </div>
  );
});
