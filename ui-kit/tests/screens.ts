/** One element of every screen the kit exports, for the render-everywhere tests. */
import { createElement, type ReactElement } from "react";
import { SignIn } from "../src/index.js";

export const SCREENS: Record<string, ReactElement> = {
  SignIn: createElement(SignIn),
};
