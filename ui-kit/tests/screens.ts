/** One element of every screen the kit exports, for the render-everywhere tests. */
import { createElement, type ReactElement } from "react";
import {
  AcceptInvitation,
  AccountSettings,
  CreateOrganization,
  ForgotPassword,
  Invitations,
  OrganizationSettings,
  OrganizationSwitcher,
  ResetPassword,
  SignIn,
  SignUp,
  Teams,
  UserButton,
  VerifyEmail,
} from "../src/index.js";

export const SCREENS: Record<string, ReactElement> = {
  SignIn: createElement(SignIn),
  SignUp: createElement(SignUp),
  ForgotPassword: createElement(ForgotPassword),
  ResetPassword: createElement(ResetPassword),
  VerifyEmail: createElement(VerifyEmail),
  UserButton: createElement(UserButton),
  AccountSettings: createElement(AccountSettings),
  OrganizationSwitcher: createElement(OrganizationSwitcher),
  CreateOrganization: createElement(CreateOrganization),
  OrganizationSettings: createElement(OrganizationSettings),
  Teams: createElement(Teams),
  Invitations: createElement(Invitations),
  AcceptInvitation: createElement(AcceptInvitation, { invitationId: "invitation-1" }),
};
