import { plural } from "../../plural.js";
import type { Messages } from "../../types.js";

export const invitations: Messages["invitations"] = {
  title: "Invitations",
  description: "Les organisations qui vous ont invité à les rejoindre.",
  loading: "Chargement des invitations…",
  signedOut: "Connectez-vous pour voir vos invitations.",
  empty: "Vous n’avez aucune invitation en attente.",
  count: ({ count }) =>
    plural("fr", count, {
      one: "Vous avez # invitation en attente.",
      other: "Vous avez # invitations en attente.",
    }),
  verificationRequired:
    "Vérifiez votre adresse e-mail pour voir les invitations qui y ont été envoyées.",
  verificationHint: ({ email }) =>
    `Ouvrez le lien de vérification envoyé à ${email}, puis revenez ici.`,
  role: ({ role }) => `Rôle : ${role}`,
  invitedBy: ({ email }) => `Invitation de ${email}`,
  expires: ({ date }) => `Expire le ${date}`,
  expired: "Expirée",
  expiredHint: "Cette invitation a expiré. Demandez-en une nouvelle.",
  accept: "Accepter",
  acceptFor: ({ organization }) => `Accepter l’invitation à rejoindre ${organization}`,
  decline: "Refuser",
  declineFor: ({ organization }) => `Refuser l’invitation à rejoindre ${organization}`,
  declineTitle: ({ organization }) => `Refuser l’invitation à rejoindre ${organization} ?`,
  declineDescription:
    "Pour rejoindre l’organisation plus tard, il vous faudra une nouvelle invitation.",
  declineConfirm: "Refuser l’invitation",
  accepted: ({ organization }) => `Vous avez rejoint ${organization}.`,
  declined: ({ organization }) => `Vous avez refusé l’invitation à rejoindre ${organization}.`,
  page: {
    title: "Invitation",
    loading: "Chargement de l’invitation…",
    missingId: "Ce lien ne désigne aucune invitation. Rouvrez le lien reçu par e-mail.",
    signedOutTitle: "Vous avez été invité",
    signedOut:
      "Connectez-vous, ou créez un compte, avec l’adresse e-mail qui a reçu l’invitation. Vous reviendrez ensuite ici pour l’accepter.",
    signIn: "Se connecter",
    signUp: "Créer un compte",
    invitedTitle: ({ organization }) => `Rejoindre ${organization}`,
    invitedBy: ({ inviter, organization }) => `${inviter} vous invite à rejoindre ${organization}.`,
    role: ({ role }) => `Votre rôle : ${role}`,
    expires: ({ date }) => `L’invitation est valable jusqu’au ${date}.`,
    accept: "Accepter l’invitation",
    decline: "Refuser",
    acceptedTitle: ({ organization }) => `Bienvenue dans ${organization}`,
    acceptedText: "Vous êtes maintenant membre de l’organisation.",
    continue: "Continuer",
    declinedTitle: "Invitation refusée",
    declinedText: ({ organization }) => `Vous ne rejoindrez pas ${organization}.`,
    notFoundTitle: "Cette invitation n’est plus valable",
    notFoundText:
      "Elle a peut-être expiré, été annulée ou déjà été utilisée. Demandez à la personne qui vous a invité de vous en envoyer une nouvelle.",
    wrongRecipientTitle: "Cette invitation est destinée à une autre adresse",
    wrongRecipientTo: ({ email, current }) =>
      `Elle a été envoyée à ${email}, mais vous êtes connecté en tant que ${current}. Connectez-vous avec ${email} pour l’accepter.`,
    wrongRecipient: ({ current }) =>
      `Vous êtes connecté en tant que ${current}, mais l’invitation a été envoyée à une autre adresse. Connectez-vous avec l’adresse qui l’a reçue.`,
    signOutAndSignIn: "Se déconnecter et changer de compte",
    verifyTitle: "Vérifiez d’abord votre adresse e-mail",
    verifyText: ({ email }) =>
      `Ouvrez le lien de vérification envoyé à ${email}, puis revenez à cette invitation.`,
    alreadyMemberTitle: ({ organization }) => `Vous êtes déjà membre de ${organization}`,
    alreadyMemberText: "Il n’y a rien à accepter : ouvrez simplement l’organisation.",
    openOrganization: "Ouvrir l’organisation",
  },
};
