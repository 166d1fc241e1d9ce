import { plural } from "../../plural.js";
import type { Messages } from "../../types.js";

export const common: Messages["common"] = {
  loading: "Chargement…",
  or: "ou",
  cancel: "Annuler",
  close: "Fermer",
  save: "Enregistrer",
  saved: "Enregistré",
  continue: "Continuer",
  back: "Retour",
  remove: "Retirer",
  edit: "Modifier",
  retry: "Réessayer",
  email: "Adresse e-mail",
  password: "Mot de passe",
  name: "Nom",
  showPassword: "Afficher le mot de passe",
  hidePassword: "Masquer le mot de passe",
  required: "Ce champ est obligatoire.",
  invalidEmail: "Saisissez une adresse e-mail valide.",
  invalidField: "Cette valeur n'est pas valide.",
  passwordTooShort: ({ min }: { min: number }) =>
    plural("fr", min, {
      one: "Utilisez au moins # caractère.",
      other: "Utilisez au moins # caractères.",
    }),
  passwordTooLong: ({ max }: { max: number }) =>
    plural("fr", max, {
      one: "Utilisez au plus # caractère.",
      other: "Utilisez au plus # caractères.",
    }),
  continueWith: ({ provider }: { provider: string }) => `Continuer avec ${provider}`,
  stepUp: {
    title: "Confirmez votre identité",
    description: "Pour votre sécurité, saisissez à nouveau votre mot de passe pour continuer.",
    descriptionSocial: "Pour votre sécurité, reconnectez-vous pour continuer.",
    confirm: "Confirmer",
  },
};
