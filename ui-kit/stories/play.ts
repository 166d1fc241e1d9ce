/** What every story's play function receives, and the strings it looks for. */
import { type LocaleCode, loadMessages, type Messages } from "../src/index.js";
import type { MockAuthd } from "./mock/authd.js";

export interface PlayContext {
  canvasElement: HTMLElement;
  globals: { locale?: string };
  loaded: { authd?: MockAuthd };
}

/** The strings of the story's language, the same ones the kit shows. */
export function strings(globals: PlayContext["globals"]): Promise<Messages> {
  return loadMessages((globals.locale ?? "en") as LocaleCode | "pseudo");
}
