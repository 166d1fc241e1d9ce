import { plural } from "../../plural.js";
import type { Messages } from "../../types.js";

export const invitations: Messages["invitations"] = {
  title: "Einladungen",
  description: "Organisationen, die Sie eingeladen haben.",
  loading: "Einladungen werden geladen …",
  signedOut: "Melden Sie sich an, um Ihre Einladungen zu sehen.",
  empty: "Sie haben keine offenen Einladungen.",
  count: ({ count }) =>
    plural("de", count, {
      one: "Sie haben # offene Einladung.",
      other: "Sie haben # offene Einladungen.",
    }),
  verificationRequired:
    "Bestätigen Sie Ihre E-Mail-Adresse, um die an sie gesendeten Einladungen zu sehen.",
  verificationHint: ({ email }) =>
    `Öffnen Sie den Bestätigungslink, den wir an ${email} gesendet haben, und kehren Sie dann hierher zurück.`,
  role: ({ role }) => `Rolle: ${role}`,
  invitedBy: ({ email }) => `Eingeladen von ${email}`,
  expires: ({ date }) => `Gültig bis ${date}`,
  expired: "Abgelaufen",
  expiredHint: "Diese Einladung ist abgelaufen. Bitten Sie um eine neue.",
  accept: "Annehmen",
  acceptFor: ({ organization }) => `Einladung zu ${organization} annehmen`,
  decline: "Ablehnen",
  declineFor: ({ organization }) => `Einladung zu ${organization} ablehnen`,
  declineTitle: ({ organization }) => `Einladung zu ${organization} ablehnen?`,
  declineDescription: "Um später beizutreten, brauchen Sie eine neue Einladung.",
  declineConfirm: "Einladung ablehnen",
  accepted: ({ organization }) => `Sie sind ${organization} beigetreten.`,
  declined: ({ organization }) => `Sie haben die Einladung zu ${organization} abgelehnt.`,
  page: {
    title: "Einladung",
    loading: "Einladung wird geladen …",
    missingId: "Dieser Link enthält keine Einladung. Öffnen Sie den Link aus der E-Mail erneut.",
    signedOutTitle: "Sie wurden eingeladen",
    signedOut:
      "Melden Sie sich mit der E-Mail-Adresse an, an die die Einladung ging, oder erstellen Sie damit ein Konto. Danach kommen Sie hierher zurück, um sie anzunehmen.",
    signIn: "Anmelden",
    signUp: "Konto erstellen",
    invitedTitle: ({ organization }) => `${organization} beitreten`,
    invitedBy: ({ inviter, organization }) =>
      `${inviter} hat Sie eingeladen, ${organization} beizutreten.`,
    role: ({ role }) => `Ihre Rolle: ${role}`,
    expires: ({ date }) => `Die Einladung ist bis ${date} gültig.`,
    accept: "Einladung annehmen",
    decline: "Ablehnen",
    acceptedTitle: ({ organization }) => `Willkommen bei ${organization}`,
    acceptedText: "Sie sind jetzt Mitglied der Organisation.",
    continue: "Weiter",
    declinedTitle: "Einladung abgelehnt",
    declinedText: ({ organization }) => `Sie treten ${organization} nicht bei.`,
    notFoundTitle: "Diese Einladung ist nicht mehr gültig",
    notFoundText:
      "Sie ist vielleicht abgelaufen, wurde zurückgezogen oder schon verwendet. Bitten Sie die Person, die Sie eingeladen hat, um eine neue.",
    wrongRecipientTitle: "Diese Einladung gilt einer anderen E-Mail-Adresse",
    wrongRecipientTo: ({ email, current }) =>
      `Sie wurde an ${email} gesendet, Sie sind aber als ${current} angemeldet. Melden Sie sich mit ${email} an, um sie anzunehmen.`,
    wrongRecipient: ({ current }) =>
      `Sie sind als ${current} angemeldet, die Einladung ging aber an eine andere Adresse. Melden Sie sich mit der Adresse an, die sie erhalten hat.`,
    signOutAndSignIn: "Abmelden und mit einem anderen Konto anmelden",
    verifyTitle: "Bestätigen Sie zuerst Ihre E-Mail-Adresse",
    verifyText: ({ email }) =>
      `Öffnen Sie den Bestätigungslink, den wir an ${email} gesendet haben, und kehren Sie dann zu dieser Einladung zurück.`,
    alreadyMemberTitle: ({ organization }) => `Sie sind bereits Mitglied von ${organization}`,
    alreadyMemberText: "Es gibt nichts anzunehmen: Öffnen Sie einfach die Organisation.",
    openOrganization: "Organisation öffnen",
  },
};
