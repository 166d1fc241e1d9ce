/** The user's menu and the account settings: profile, email, password, linked accounts, sessions. */
export const account = {
  userButton: {
    openMenu: ({ name }: { name: string }) => `Account menu for ${name}`,
    loading: "Loading your account",
    signIn: "Sign in",
    account: "Account",
    organizations: "Organizations",
    personal: "Personal account",
    createOrganization: "Create organization",
    signOut: "Sign out",
  },
  settings: {
    title: "Account",
    description: "Manage your profile, sign-in methods and devices.",
    signedOut: "Sign in to manage your account.",
  },
  profile: {
    title: "Profile",
    imageUrl: "Profile picture URL",
    imageHint: "A link to an image; leave empty to show your initials.",
    invalidImage: "Enter a link that starts with https://.",
    saved: "Your profile is saved.",
  },
  email: {
    title: "Email address",
    current: "Current address",
    verified: "Verified",
    unverified: "Not verified",
    newEmail: "New email address",
    submit: "Change email",
    sentToCurrent: ({ email }: { email: string }) =>
      `Check your inbox: we sent a link to ${email} to confirm the change.`,
    sentToNew: ({ email }: { email: string }) =>
      `Check your inbox: we sent a link to ${email} to confirm the new address.`,
    changed: ({ email }: { email: string }) => `Your email address is now ${email}.`,
    changedUnverified: ({ email }: { email: string }) =>
      `Your email address is now ${email}. We sent a link to it: open it to verify the address.`,
    linkFailed: "The link to change your email address did not work.",
  },
  password: {
    title: "Password",
    current: "Current password",
    new: "New password",
    revokeOtherSessions: "Sign out of all other devices",
    submit: "Change password",
    changed: "Your password has been changed.",
    noPassword:
      "You sign in with a linked account and have no password yet. To set one, we will email you a link.",
    sendLink: "Email me a link to set a password",
    linkSent: ({ email }: { email: string }) =>
      `Check your inbox: we sent a link to ${email} to set your password.`,
  },
  linkedAccounts: {
    title: "Sign-in methods",
    credential: "Email and password",
    linkedSince: ({ date }: { date: string }) => `Linked on ${date}`,
    link: ({ provider }: { provider: string }) => `Link ${provider}`,
    unlink: "Unlink",
    unlinkLabel: ({ provider }: { provider: string }) => `Unlink ${provider}`,
    confirmTitle: ({ provider }: { provider: string }) => `Unlink ${provider}?`,
    confirmDescription: "You will no longer be able to sign in with it.",
    unlinked: ({ provider }: { provider: string }) => `${provider} is no longer linked.`,
  },
  sessions: {
    title: "Devices",
    description: "Where you are signed in.",
    device: ({ browser, os }: { browser: string; os: string }) => `${browser} on ${os}`,
    unknownDevice: "Unknown device",
    unknownBrowser: "Browser",
    unknownOs: "an unknown system",
    thisDevice: "This device",
    lastActive: ({ when }: { when: string }) => `Last active ${when}`,
    justNow: "just now",
    ipAddress: ({ ip }: { ip: string }) => `IP address ${ip}`,
    revoke: "Sign out",
    revokeLabel: ({ device }: { device: string }) => `Sign out ${device}`,
    revokeOthers: "Sign out of all other devices",
    confirmRevokeOthers: "Sign out of all other devices?",
    confirmRevokeOthersDescription:
      "Every other browser and app where you are signed in will have to sign in again.",
    othersRevoked: "You are signed out of all other devices.",
    revoked: "The device is signed out.",
    none: "No other devices are signed in.",
  },
  deleteAccount: {
    title: "Delete account",
    description:
      "Deleting your account removes your profile, sign-in methods and memberships. This cannot be undone.",
    open: "Delete account…",
    confirmTitle: "Delete your account?",
    confirmDescription: "Your account and everything linked to it will be deleted for good.",
    passwordHint: "Enter your password to confirm.",
    confirm: "Delete my account",
    emailSent:
      "Check your inbox: we sent you a link. Your account will be deleted once you follow it.",
    linkFailed: "The link to delete your account did not work.",
  },
};
