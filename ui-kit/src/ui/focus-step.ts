import { type RefObject, useEffect, useRef } from "react";

/**
 * Moves focus to `target` (a heading) whenever `step` changes, but not on the first
 * render: a screen that just appeared leaves focus where the page put it.
 */
export function useFocusOnStep(step: string, target: RefObject<HTMLElement | null>): void {
  const previous = useRef(step);
  useEffect(() => {
    if (previous.current === step) return;
    previous.current = step;
    target.current?.focus();
  }, [step, target]);
}
