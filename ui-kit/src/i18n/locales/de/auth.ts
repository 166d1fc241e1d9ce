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
};
