import type { Messages } from "../../types.js";

export const account: Messages["account"] = {
  userButton: {
    openMenu: ({ name }: { name: string }) => `Kontomenü von ${name}`,
    loading: "Konto wird geladen",
    signIn: "Anmelden",
    account: "Konto",
    organizations: "Organisationen",
    personal: "Persönliches Konto",
    createOrganization: "Organisation erstellen",
    signOut: "Abmelden",
  },
  settings: {
    title: "Konto",
    description: "Verwalte dein Profil, deine Anmeldemethoden und Geräte.",
    signedOut: "Melde dich an, um dein Konto zu verwalten.",
  },
  profile: {
    title: "Profil",
    imageUrl: "URL des Profilbilds",
    imageHint: "Ein Link zu einem Bild; leer lassen, um deine Initialen zu zeigen.",
    invalidImage: "Gib einen Link ein, der mit https:// beginnt.",
    saved: "Dein Profil wurde gespeichert.",
  },
  email: {
    title: "E-Mail-Adresse",
    current: "Aktuelle Adresse",
    verified: "Bestätigt",
    unverified: "Nicht bestätigt",
    newEmail: "Neue E-Mail-Adresse",
    submit: "E-Mail ändern",
    sentToCurrent: ({ email }: { email: string }) =>
      `Sieh in dein Postfach: Wir haben an ${email} einen Link geschickt, um die Änderung zu bestätigen.`,
    sentToNew: ({ email }: { email: string }) =>
      `Sieh in dein Postfach: Wir haben an ${email} einen Link geschickt, um die neue Adresse zu bestätigen.`,
    changed: ({ email }: { email: string }) => `Deine E-Mail-Adresse lautet jetzt ${email}.`,
    changedUnverified: ({ email }: { email: string }) =>
      `Deine E-Mail-Adresse lautet jetzt ${email}. Wir haben einen Link an sie geschickt: Öffne ihn, um die Adresse zu bestätigen.`,
    linkFailed: "Der Link zum Ändern deiner E-Mail-Adresse hat nicht funktioniert.",
  },
  password: {
    title: "Passwort",
    current: "Aktuelles Passwort",
    new: "Neues Passwort",
    revokeOtherSessions: "Auf allen anderen Geräten abmelden",
    submit: "Passwort ändern",
    changed: "Dein Passwort wurde geändert.",
    noPassword:
      "Du meldest dich über ein verknüpftes Konto an und hast noch kein Passwort. Um eines festzulegen, schicken wir dir einen Link per E-Mail.",
    sendLink: "Link zum Festlegen eines Passworts senden",
    linkSent: ({ email }: { email: string }) =>
      `Sieh in dein Postfach: Wir haben an ${email} einen Link geschickt, um dein Passwort festzulegen.`,
  },
  linkedAccounts: {
    title: "Anmeldemethoden",
    credential: "E-Mail und Passwort",
    linkedSince: ({ date }: { date: string }) => `Verknüpft am ${date}`,
    link: ({ provider }: { provider: string }) => `${provider} verknüpfen`,
    unlink: "Trennen",
    unlinkLabel: ({ provider }: { provider: string }) => `${provider} trennen`,
    confirmTitle: ({ provider }: { provider: string }) => `${provider} trennen?`,
    confirmDescription: "Du kannst dich dann nicht mehr damit anmelden.",
    unlinked: ({ provider }: { provider: string }) => `${provider} ist nicht mehr verknüpft.`,
  },
  sessions: {
    title: "Geräte",
    description: "Wo du angemeldet bist.",
    device: ({ browser, os }: { browser: string; os: string }) => `${browser} unter ${os}`,
    unknownDevice: "Unbekanntes Gerät",
    unknownBrowser: "Browser",
    unknownOs: "einem unbekannten System",
    thisDevice: "Dieses Gerät",
    lastActive: ({ when }: { when: string }) => `Zuletzt aktiv: ${when}`,
    justNow: "gerade eben",
    ipAddress: ({ ip }: { ip: string }) => `IP-Adresse ${ip}`,
    revoke: "Abmelden",
    revokeLabel: ({ device }: { device: string }) => `${device} abmelden`,
    revokeOthers: "Auf allen anderen Geräten abmelden",
    confirmRevokeOthers: "Auf allen anderen Geräten abmelden?",
    confirmRevokeOthersDescription:
      "In allen anderen Browsern und Apps, in denen du angemeldet bist, musst du dich neu anmelden.",
    othersRevoked: "Du wurdest auf allen anderen Geräten abgemeldet.",
    revoked: "Das Gerät wurde abgemeldet.",
    none: "Auf keinem anderen Gerät angemeldet.",
  },
  deleteAccount: {
    title: "Konto löschen",
    description:
      "Beim Löschen deines Kontos werden dein Profil, deine Anmeldemethoden und Mitgliedschaften entfernt. Das lässt sich nicht rückgängig machen.",
    open: "Konto löschen…",
    confirmTitle: "Dein Konto löschen?",
    confirmDescription: "Dein Konto und alles, was damit verknüpft ist, wird endgültig gelöscht.",
    passwordHint: "Gib zur Bestätigung dein Passwort ein.",
    confirm: "Mein Konto löschen",
    emailSent:
      "Sieh in dein Postfach: Wir haben dir einen Link geschickt. Dein Konto wird gelöscht, sobald du ihn öffnest.",
    linkFailed: "Der Link zum Löschen deines Kontos hat nicht funktioniert.",
  },
};
