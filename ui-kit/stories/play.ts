/** What every story's play function receives, and the strings it looks for. */
import { within } from "storybook/test";
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

/** Waits for the screen's heading in the story's language (it stays hidden while that loads). */
export async function screenTitled(
  { canvasElement, globals }: PlayContext,
  title: (messages: Messages) => string,
) {
  const canvas = within(canvasElement);
  const messages = await strings(globals);
  await canvas.findByRole("heading", { name: title(messages) });
  return { canvas, messages };
}
