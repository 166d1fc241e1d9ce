import type { Messages } from "../../types.js";

export const account: Messages["account"] = {
  userButton: {
    openMenu: ({ name }: { name: string }) => `Menu du compte de ${name}`,
    loading: "Chargement de votre compte",
    signIn: "Se connecter",
    account: "Compte",
    organizations: "Organisations",
    personal: "Compte personnel",
    createOrganization: "Créer une organisation",
    signOut: "Se déconnecter",
  },
  settings: {
    title: "Compte",
    description: "Gérez votre profil, vos méthodes de connexion et vos appareils.",
    signedOut: "Connectez-vous pour gérer votre compte.",
  },
  profile: {
    title: "Profil",
    imageUrl: "URL de la photo de profil",
    imageHint: "Un lien vers une image ; laissez vide pour afficher vos initiales.",
    invalidImage: "Saisissez un lien qui commence par https://.",
    saved: "Votre profil est enregistré.",
  },
  email: {
    title: "Adresse e-mail",
    current: "Adresse actuelle",
    verified: "Vérifiée",
    unverified: "Non vérifiée",
    newEmail: "Nouvelle adresse e-mail",
    submit: "Changer d'adresse",
    sentToCurrent: ({ email }: { email: string }) =>
      `Consultez votre boîte de réception : nous avons envoyé à ${email} un lien pour confirmer le changement.`,
    sentToNew: ({ email }: { email: string }) =>
      `Consultez votre boîte de réception : nous avons envoyé à ${email} un lien pour confirmer la nouvelle adresse.`,
    changed: ({ email }: { email: string }) => `Votre adresse e-mail est désormais ${email}.`,
    changedUnverified: ({ email }: { email: string }) =>
      `Votre adresse e-mail est désormais ${email}. Nous y avons envoyé un lien : ouvrez-le pour vérifier l'adresse.`,
    linkFailed: "Le lien pour changer votre adresse e-mail n'a pas fonctionné.",
  },
  password: {
    title: "Mot de passe",
    current: "Mot de passe actuel",
    new: "Nouveau mot de passe",
    revokeOtherSessions: "Me déconnecter de tous les autres appareils",
    submit: "Changer le mot de passe",
    changed: "Votre mot de passe a été modifié.",
    noPassword:
      "Vous vous connectez avec un compte associé et n'avez pas encore de mot de passe. Pour en définir un, nous vous enverrons un lien par e-mail.",
    sendLink: "M'envoyer un lien pour définir un mot de passe",
    linkSent: ({ email }: { email: string }) =>
      `Consultez votre boîte de réception : nous avons envoyé à ${email} un lien pour définir votre mot de passe.`,
  },
  linkedAccounts: {
    title: "Méthodes de connexion",
    credential: "E-mail et mot de passe",
    linkedSince: ({ date }: { date: string }) => `Associé le ${date}`,
    link: ({ provider }: { provider: string }) => `Associer ${provider}`,
    unlink: "Dissocier",
    unlinkLabel: ({ provider }: { provider: string }) => `Dissocier ${provider}`,
    confirmTitle: ({ provider }: { provider: string }) => `Dissocier ${provider} ?`,
    confirmDescription: "Vous ne pourrez plus vous connecter avec ce compte.",
    unlinked: ({ provider }: { provider: string }) => `${provider} n'est plus associé.`,
  },
  sessions: {
    title: "Appareils",
    description: "Les appareils sur lesquels vous êtes connecté.",
    device: ({ browser, os }: { browser: string; os: string }) => `${browser} sur ${os}`,
    unknownDevice: "Appareil inconnu",
    unknownBrowser: "Navigateur",
    unknownOs: "un système inconnu",
    thisDevice: "Cet appareil",
    lastActive: ({ when }: { when: string }) => `Dernière activité : ${when}`,
    justNow: "à l'instant",
    ipAddress: ({ ip }: { ip: string }) => `Adresse IP ${ip}`,
    revoke: "Déconnecter",
    revokeLabel: ({ device }: { device: string }) => `Déconnecter ${device}`,
    revokeOthers: "Me déconnecter de tous les autres appareils",
    confirmRevokeOthers: "Vous déconnecter de tous les autres appareils ?",
    confirmRevokeOthersDescription:
      "Il faudra vous reconnecter dans tous les autres navigateurs et applications.",
    othersRevoked: "Vous êtes déconnecté de tous les autres appareils.",
    revoked: "L'appareil est déconnecté.",
    none: "Aucun autre appareil n'est connecté.",
  },
  deleteAccount: {
    title: "Supprimer le compte",
    description:
      "La suppression de votre compte efface votre profil, vos méthodes de connexion et vos adhésions. Cette action est irréversible.",
    open: "Supprimer le compte…",
    confirmTitle: "Supprimer votre compte ?",
    confirmDescription:
      "Votre compte et tout ce qui y est associé seront supprimés définitivement.",
    passwordHint: "Saisissez votre mot de passe pour confirmer.",
    confirm: "Supprimer mon compte",
    emailSent:
      "Consultez votre boîte de réception : nous vous avons envoyé un lien. Votre compte sera supprimé dès que vous l'aurez ouvert.",
    linkFailed: "Le lien pour supprimer votre compte n'a pas fonctionné.",
  },
};
