import { plural } from "../../plural.js";
import type { Messages } from "../../types.js";

export const auth: Messages["auth"] = {
  signIn: {
    title: "Anmelden",
    description: "Willkommen zurück. Melde dich an, um fortzufahren.",
    submit: "Anmelden",
    rememberMe: "Angemeldet bleiben",
    forgotPassword: "Passwort vergessen?",
    noAccount: "Noch kein Konto?",
    signUpLink: "Registrieren",
    socialHeading: "Anmelden mit",
    emailNotVerified: "Bestätige zuerst deine E-Mail-Adresse: Wir haben dir einen Link geschickt.",
    resendVerification: "Link erneut senden",
    verificationSent: ({ email }: { email: string }) =>
      `Wir haben einen neuen Link an ${email} gesendet.`,
  },
  signUp: {
    title: "Konto erstellen",
    description: "Gib deine Daten ein, um loszulegen.",
    submit: "Konto erstellen",
    passwordHint: ({ min }: { min: number }) =>
      plural("de", min, { one: "Mindestens # Zeichen.", other: "Mindestens # Zeichen." }),
    imageLabel: "URL des Profilbilds",
    imageHint: "Optional: ein Link zu einem Bild von dir.",
    invalidImage: "Gib eine vollständige Webadresse ein, die mit https:// beginnt.",
    haveAccount: "Du hast schon ein Konto?",
    signInLink: "Anmelden",
    checkEmailTitle: "Sieh in dein Postfach",
    checkEmail: ({ email }: { email: string }) =>
      `Wir haben einen Link an ${email} gesendet. Öffne ihn, um deine Adresse zu bestätigen und die Registrierung abzuschließen.`,
    useAnotherEmail: "Andere E-Mail-Adresse verwenden",
  },
  forgotPassword: {
    title: "Passwort vergessen?",
    description:
      "Gib deine E-Mail-Adresse ein und wir senden dir einen Link, mit dem du ein neues Passwort wählen kannst.",
    submit: "Link senden",
    sentTitle: "Sieh in dein Postfach",
    sent: ({ email }: { email: string }) =>
      `Falls zu ${email} ein Konto gehört, ist ein Link zum Zurücksetzen des Passworts unterwegs. Er funktioniert nur einmal.`,
    useAnotherEmail: "Andere E-Mail-Adresse verwenden",
    backToSignIn: "Zurück zur Anmeldung",
  },
  resetPassword: {
    title: "Neues Passwort wählen",
    description: "Gib das neue Passwort für dein Konto zweimal ein.",
    newPassword: "Neues Passwort",
    confirmPassword: "Neues Passwort wiederholen",
    mismatch: "Die Passwörter stimmen nicht überein.",
    submit: "Passwort speichern",
    doneTitle: "Passwort geändert",
    done: "Dein Passwort wurde geändert. Melde dich mit dem neuen an.",
    signIn: "Anmelden",
    invalidTitle: "Dieser Link funktioniert nicht",
    invalid: "Der Link ist ungültig oder wurde schon verwendet. Fordere einen neuen an.",
    expired: "Der Link ist abgelaufen. Fordere einen neuen an.",
    requestNew: "Neuen Link anfordern",
  },
  verifyEmail: {
    verifyingTitle: "E-Mail-Adresse wird bestätigt",
    verifying: "Deine Adresse wird geprüft …",
    verifiedTitle: "E-Mail-Adresse bestätigt",
    verified: "Danke, deine E-Mail-Adresse ist bestätigt.",
    alreadyVerified: "Deine E-Mail-Adresse war bereits bestätigt.",
    continue: "Weiter",
    failedTitle: "Deine E-Mail-Adresse konnte nicht bestätigt werden",
    signInForNewLink: "Melde dich an, um einen neuen Link zu erhalten",
    unverifiedTitle: "Bestätige deine E-Mail-Adresse",
    unverified: ({ email }: { email: string }) =>
      `Öffne den Link, den wir an ${email} gesendet haben, um deine Adresse zu bestätigen. Keine E-Mail erhalten? Wir senden sie gern noch einmal.`,
    resend: "Link erneut senden",
    sentTitle: "Sieh in dein Postfach",
    sent: ({ email }: { email: string }) => `Wir haben einen neuen Link an ${email} gesendet.`,
    signedOut:
      "Öffne den Link aus der E-Mail, die wir dir geschickt haben, um deine Adresse zu bestätigen.",
    signIn: "Anmelden",
  },
};
