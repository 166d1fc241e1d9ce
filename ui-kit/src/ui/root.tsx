import type { ReactNode } from "react";
import { useAuthContext } from "../auth-context.js";
import { variableStyle } from "../theme/variables.js";
import { type ClassNames, joinClasses, PartsContext } from "./parts.js";

/** What every component takes to fit the host's styling. */
export interface StyleProps<Part extends string = string> {
  className?: string;
  /** The host's classes per part, e.g. `{ button: "btn btn-primary" }`. */
  classNames?: Partial<Record<Part, string>>;
}

export interface RootProps extends StyleProps {
  /** The component's name in kebab case, e.g. "sign-in". */
  component: string;
  /** The component's state for styling, e.g. "loading", "error", "done". */
  state?: string;
  children?: ReactNode;
  as?: "div" | "section";
  /** Cards get the framed look; inline components (UserButton) do not. */
  variant?: "card" | "inline";
  "aria-labelledby"?: string;
}

/**
 * The outer element of every component: theme, language and state attributes, the
 * theme variables, and the part classes for everything inside.
 */
export function Root({
  component,
  state,
  children,
  className,
  classNames,
  as: Element = "div",
  variant = "card",
  ...aria
}: RootProps) {
  const { appearance, variables, locale, localeReady } = useAuthContext();
  return (
    <PartsContext.Provider value={(classNames ?? {}) as ClassNames}>
      <Element
        className={joinClasses("authd-root", classNames?.root, className)}
        data-authd-part="root"
        data-authd-component={component}
        data-authd-variant={variant}
        data-authd-theme={appearance}
        data-state={state}
        data-authd-locale-pending={localeReady ? undefined : ""}
        aria-busy={localeReady ? undefined : true}
        lang={locale === "pseudo" ? "en" : locale}
        style={variableStyle(variables)}
        {...aria}
      >
        {children}
      </Element>
    </PartsContext.Provider>
  );
}
