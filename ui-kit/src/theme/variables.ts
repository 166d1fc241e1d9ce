/**
 * The provider's `variables` as the --authd-* custom properties the stylesheet reads
 * (see styles.css beside this file).
 */
import type { CSSProperties } from "react";
import type { ThemeVariables } from "../auth-context.js";

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

export function variableStyle(variables: ThemeVariables | undefined): CSSProperties | undefined {
  if (!variables) return undefined;
  const style: Record<string, string> = {};
  for (const [name, value] of Object.entries(variables)) {
    const property = VARIABLE_NAMES[name as keyof ThemeVariables];
    if (property && typeof value === "string") style[property] = value;
  }
  return style as CSSProperties;
}
