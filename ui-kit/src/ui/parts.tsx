/**
 * Stable hooks for the host's CSS: every element the kit renders carries
 * `data-authd-part`, and a component's `classNames` map adds the host's classes per part.
 */
import { createContext, useContext } from "react";

export type ClassNames = Readonly<Record<string, string | undefined>>;

export const PartsContext = createContext<ClassNames>({});

export function joinClasses(...names: (string | false | null | undefined)[]): string | undefined {
  const joined = names.filter(Boolean).join(" ");
  return joined || undefined;
}

/** The attributes of one part: its stable name and the host's classes for it. */
export function usePart(
  part: string,
  className?: string,
): { "data-authd-part": string; className: string | undefined } {
  const classNames = useContext(PartsContext);
  return { "data-authd-part": part, className: joinClasses(classNames[part], className) };
}
