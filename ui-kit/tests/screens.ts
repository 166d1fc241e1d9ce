/** One element of every screen the kit exports, for the render-everywhere tests. */
import { createElement, type ReactElement } from "react";
import { AcceptInvitation, Invitations, SignIn, Teams } from "../src/index.js";

export const SCREENS: Record<string, ReactElement> = {
  SignIn: createElement(SignIn),
  Teams: createElement(Teams),
  Invitations: createElement(Invitations),
  AcceptInvitation: createElement(AcceptInvitation, { invitationId: "invitation-1" }),
};
