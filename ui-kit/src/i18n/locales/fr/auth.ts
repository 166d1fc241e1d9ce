import type { Messages } from "../../types.js";

export const auth: Messages["auth"] = {
  signIn: {
    title: "Connexion",
    description: "Bon retour parmi nous. Connectez-vous pour continuer.",
    submit: "Se connecter",
    rememberMe: "Se souvenir de moi",
    forgotPassword: "Mot de passe oublié ?",
    noAccount: "Pas encore de compte ?",
    signUpLink: "Créer un compte",
    socialHeading: "Se connecter avec",
    emailNotVerified: "Vérifiez d'abord votre adresse e-mail : nous vous avons envoyé un lien.",
    resendVerification: "Renvoyer le lien",
    verificationSent: ({ email }: { email: string }) =>
      `Nous avons envoyé un nouveau lien à ${email}.`,
  },
};
