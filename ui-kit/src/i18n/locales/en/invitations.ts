import { plural } from "../../plural.js";

/** <Invitations/> (the signed-in user's invitations) and <AcceptInvitation/> (the mailed link's page). */
export const invitations = {
  title: "Invitations",
  description: "Organizations that invited you to join them.",
  loading: "Loading invitations…",
  signedOut: "Sign in to see your invitations.",
  empty: "You have no pending invitations.",
  count: ({ count }: { count: number }) =>
    plural("en", count, {
      one: "You have # pending invitation.",
      other: "You have # pending invitations.",
    }),
  verificationRequired: "Verify your email address to see the invitations sent to it.",
  verificationHint: ({ email }: { email: string }) =>
    `Open the verification link we sent to ${email}, then come back here.`,
  role: ({ role }: { role: string }) => `Role: ${role}`,
  invitedBy: ({ email }: { email: string }) => `Invited by ${email}`,
  expires: ({ date }: { date: string }) => `Expires on ${date}`,
  expired: "Expired",
  expiredHint: "This invitation has expired. Ask for a new one.",
  accept: "Accept",
  acceptFor: ({ organization }: { organization: string }) =>
    `Accept the invitation to ${organization}`,
  decline: "Decline",
  declineFor: ({ organization }: { organization: string }) =>
    `Decline the invitation to ${organization}`,
  declineTitle: ({ organization }: { organization: string }) =>
    `Decline the invitation to ${organization}?`,
  declineDescription: "To join later, you will need a new invitation.",
  declineConfirm: "Decline invitation",
  accepted: ({ organization }: { organization: string }) => `You joined ${organization}.`,
  declined: ({ organization }: { organization: string }) =>
    `You declined the invitation to ${organization}.`,
  page: {
    title: "Invitation",
    loading: "Loading the invitation…",
    missingId: "This link does not name an invitation. Open the link from the email again.",
    signedOutTitle: "You have been invited",
    signedOut:
      "Sign in, or create an account, with the email address the invitation was sent to. You will come back here to accept it.",
    signIn: "Sign in",
    signUp: "Create an account",
    invitedTitle: ({ organization }: { organization: string }) => `Join ${organization}`,
    invitedBy: ({ inviter, organization }: { inviter: string; organization: string }) =>
      `${inviter} invited you to join ${organization}.`,
    role: ({ role }: { role: string }) => `You will join as: ${role}`,
    expires: ({ date }: { date: string }) => `The invitation is valid until ${date}.`,
    accept: "Accept invitation",
    decline: "Decline",
    acceptedTitle: ({ organization }: { organization: string }) => `Welcome to ${organization}`,
    acceptedText: "You are now a member of the organization.",
    continue: "Continue",
    declinedTitle: "Invitation declined",
    declinedText: ({ organization }: { organization: string }) =>
      `You will not join ${organization}.`,
    notFoundTitle: "This invitation is no longer valid",
    notFoundText:
      "It may have expired, been canceled or already been used. Ask the person who invited you to send a new one.",
    wrongRecipientTitle: "This invitation is for another email address",
    wrongRecipientTo: ({ email, current }: { email: string; current: string }) =>
      `It was sent to ${email}, but you are signed in as ${current}. Sign in with ${email} to accept it.`,
    wrongRecipient: ({ current }: { current: string }) =>
      `You are signed in as ${current}, but it was sent to another address. Sign in with the address that received it.`,
    signOutAndSignIn: "Sign out and sign in with another account",
    verifyTitle: "Verify your email address first",
    verifyText: ({ email }: { email: string }) =>
      `Open the verification link we sent to ${email}, then come back to this invitation.`,
    alreadyMemberTitle: ({ organization }: { organization: string }) =>
      `You are already a member of ${organization}`,
    alreadyMemberText: "There is nothing to accept: open the organization to carry on.",
    openOrganization: "Open organization",
  },
};
