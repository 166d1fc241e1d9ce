import type { Messages } from "../../types.js";

export const auth: Messages["auth"] = {
  signIn: {
    title: "Logowanie",
    description: "Witaj ponownie. Zaloguj się, aby kontynuować.",
    submit: "Zaloguj się",
    rememberMe: "Zapamiętaj mnie",
    forgotPassword: "Nie pamiętasz hasła?",
    noAccount: "Nie masz konta?",
    signUpLink: "Zarejestruj się",
    socialHeading: "Zaloguj się przez",
    emailNotVerified: "Najpierw potwierdź adres e-mail: wysłaliśmy Ci link.",
    resendVerification: "Wyślij link ponownie",
    verificationSent: ({ email }: { email: string }) => `Wysłaliśmy nowy link na adres ${email}.`,
  },
};
