import { plural } from "../../plural.js";
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
  signUp: {
    title: "Créez votre compte",
    description: "Renseignez vos informations pour commencer.",
    submit: "Créer le compte",
    passwordHint: ({ min }: { min: number }) =>
      plural("fr", min, { one: "Au moins # caractère.", other: "Au moins # caractères." }),
    imageLabel: "URL de la photo de profil",
    imageHint: "Facultatif : un lien vers une image de vous.",
    invalidImage: "Saisissez une adresse web complète commençant par https://.",
    haveAccount: "Vous avez déjà un compte ?",
    signInLink: "Se connecter",
    checkEmailTitle: "Consultez votre boîte de réception",
    checkEmail: ({ email }: { email: string }) =>
      `Nous avons envoyé un lien à ${email}. Ouvrez-le pour confirmer votre adresse et terminer votre inscription.`,
    useAnotherEmail: "Utiliser une autre adresse",
  },
  forgotPassword: {
    title: "Mot de passe oublié ?",
    description:
      "Saisissez votre adresse e-mail : nous vous enverrons un lien pour choisir un nouveau mot de passe.",
    submit: "Envoyer le lien",
    sentTitle: "Consultez votre boîte de réception",
    sent: ({ email }: { email: string }) =>
      `Si un compte utilise ${email}, un lien de réinitialisation du mot de passe vient de lui être envoyé. Il ne fonctionne qu'une fois.`,
    useAnotherEmail: "Utiliser une autre adresse",
    backToSignIn: "Retour à la connexion",
  },
  resetPassword: {
    title: "Choisissez un nouveau mot de passe",
    description: "Saisissez deux fois le nouveau mot de passe de votre compte.",
    newPassword: "Nouveau mot de passe",
    confirmPassword: "Confirmez le nouveau mot de passe",
    mismatch: "Les mots de passe ne correspondent pas.",
    submit: "Enregistrer le mot de passe",
    doneTitle: "Mot de passe modifié",
    done: "Votre mot de passe a été modifié. Connectez-vous avec le nouveau.",
    signIn: "Se connecter",
    invalidTitle: "Ce lien ne fonctionne pas",
    invalid: "Le lien n'est pas valide ou a déjà été utilisé. Demandez-en un nouveau.",
    expired: "Le lien a expiré. Demandez-en un nouveau.",
    requestNew: "Recevoir un nouveau lien",
  },
  verifyEmail: {
    verifyingTitle: "Vérification de votre adresse",
    verifying: "Nous confirmons votre adresse…",
    verifiedTitle: "Adresse e-mail vérifiée",
    verified: "Merci : votre adresse e-mail est confirmée.",
    alreadyVerified: "Votre adresse e-mail était déjà confirmée.",
    continue: "Continuer",
    failedTitle: "Votre adresse e-mail n'a pas pu être vérifiée",
    signInForNewLink: "Connectez-vous pour recevoir un nouveau lien",
    unverifiedTitle: "Vérifiez votre adresse e-mail",
    unverified: ({ email }: { email: string }) =>
      `Ouvrez le lien envoyé à ${email} pour confirmer votre adresse. Rien reçu ? Nous pouvons le renvoyer.`,
    resend: "Renvoyer le lien",
    sentTitle: "Consultez votre boîte de réception",
    sent: ({ email }: { email: string }) => `Nous avons envoyé un nouveau lien à ${email}.`,
    signedOut:
      "Ouvrez le lien de l'e-mail que nous vous avons envoyé pour confirmer votre adresse.",
    signIn: "Se connecter",
  },
};
