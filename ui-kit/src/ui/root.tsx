import type { CSSProperties, ReactNode } from "react";
import { type ThemeVariables, useAuthContext } from "../auth-context.js";
import { type ClassNames, joinClasses, PartsContext } from "./parts.js";

/** What every component takes to fit the host's styling. */
export interface StyleProps<Part extends string = string> {
  className?: string;
  /** The host's classes per part, e.g. `{ button: "btn btn-primary" }`. */
  classNames?: Partial<Record<Part, string>>;
}

const VARIABLE_NAMES: Record<keyof ThemeVariables, string> = {
  colorPrimary: "--authd-color-primary",
  colorPrimaryForeground: "--authd-color-primary-foreground",
  colorBackground: "--authd-color-background",
  colorForeground: "--authd-color-foreground",
  colorMuted: "--authd-color-muted",
  colorBorder: "--authd-color-border",
  colorDanger: "--authd-color-danger",
  colorSuccess: "--authd-color-success",
  radius: "--authd-radius",
  spacing: "--authd-spacing",
  fontFamily: "--authd-font-family",
  fontSize: "--authd-font-size",
};

function variableStyle(variables: ThemeVariables | undefined): CSSProperties | undefined {
  if (!variables) return undefined;
  const style: Record<string, string> = {};
  for (const [name, value] of Object.entries(variables)) {
    const property = VARIABLE_NAMES[name as keyof ThemeVariables];
    if (property && typeof value === "string") style[property] = value;
  }
  return style as CSSProperties;
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
