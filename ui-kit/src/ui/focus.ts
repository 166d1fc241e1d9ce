import { type RefObject, useEffect } from "react";

/**
 * Moves focus after a step or an error, so keyboard and screen-reader users land on
 * what changed: the first invalid input in `container`, else `fallback` (an alert or a heading).
 */
export function useFocusOnChange(
  signal: unknown,
  container: RefObject<HTMLElement | null>,
  fallback: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    if (signal === null || signal === undefined || signal === false) return;
    const invalid = container.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (invalid ?? fallback.current)?.focus();
  }, [signal, container, fallback]);
}
