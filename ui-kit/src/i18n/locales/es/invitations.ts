import { plural } from "../../plural.js";
import type { Messages } from "../../types.js";

export const invitations: Messages["invitations"] = {
  title: "Invitaciones",
  description: "Organizaciones que te han invitado a unirte.",
  loading: "Cargando invitaciones…",
  signedOut: "Inicia sesión para ver tus invitaciones.",
  empty: "No tienes invitaciones pendientes.",
  count: ({ count }) =>
    plural("es", count, {
      one: "Tienes # invitación pendiente.",
      other: "Tienes # invitaciones pendientes.",
    }),
  verificationRequired: "Verifica tu correo electrónico para ver las invitaciones enviadas a él.",
  verificationHint: ({ email }) =>
    `Abre el enlace de verificación que enviamos a ${email} y vuelve aquí.`,
  role: ({ role }) => `Rol: ${role}`,
  invitedBy: ({ email }) => `Invitación de ${email}`,
  expires: ({ date }) => `Caduca el ${date}`,
  expired: "Caducada",
  expiredHint: "Esta invitación ha caducado. Pide una nueva.",
  accept: "Aceptar",
  acceptFor: ({ organization }) => `Aceptar la invitación a ${organization}`,
  decline: "Rechazar",
  declineFor: ({ organization }) => `Rechazar la invitación a ${organization}`,
  declineTitle: ({ organization }) => `¿Rechazar la invitación a ${organization}?`,
  declineDescription: "Para unirte más adelante necesitarás una nueva invitación.",
  declineConfirm: "Rechazar invitación",
  accepted: ({ organization }) => `Te has unido a ${organization}.`,
  declined: ({ organization }) => `Has rechazado la invitación a ${organization}.`,
  page: {
    title: "Invitación",
    loading: "Cargando la invitación…",
    missingId: "Este enlace no contiene ninguna invitación. Vuelve a abrir el enlace del correo.",
    signedOutTitle: "Te han invitado",
    signedOut:
      "Inicia sesión o crea una cuenta con el correo al que llegó la invitación. Después volverás aquí para aceptarla.",
    signIn: "Iniciar sesión",
    signUp: "Crear una cuenta",
    invitedTitle: ({ organization }) => `Únete a ${organization}`,
    invitedBy: ({ inviter, organization }) =>
      `${inviter} te ha invitado a unirte a ${organization}.`,
    role: ({ role }) => `Te unirás como: ${role}`,
    expires: ({ date }) => `La invitación es válida hasta el ${date}.`,
    accept: "Aceptar invitación",
    decline: "Rechazar",
    acceptedTitle: ({ organization }) => `Te damos la bienvenida a ${organization}`,
    acceptedText: "Ya eres miembro de la organización.",
    continue: "Continuar",
    declinedTitle: "Invitación rechazada",
    declinedText: ({ organization }) => `No te unirás a ${organization}.`,
    notFoundTitle: "Esta invitación ya no es válida",
    notFoundText:
      "Puede que haya caducado, se haya cancelado o ya se haya usado. Pide a quien te invitó que te envíe una nueva.",
    wrongRecipientTitle: "Esta invitación es para otra dirección de correo",
    wrongRecipientTo: ({ email, current }) =>
      `Se envió a ${email}, pero has iniciado sesión como ${current}. Inicia sesión con ${email} para aceptarla.`,
    wrongRecipient: ({ current }) =>
      `Has iniciado sesión como ${current}, pero la invitación se envió a otra dirección. Inicia sesión con la dirección que la recibió.`,
    signOutAndSignIn: "Cerrar sesión y entrar con otra cuenta",
    verifyTitle: "Primero verifica tu correo electrónico",
    verifyText: ({ email }) =>
      `Abre el enlace de verificación que enviamos a ${email} y vuelve a esta invitación.`,
    alreadyMemberTitle: ({ organization }) => `Ya eres miembro de ${organization}`,
    alreadyMemberText: "No hay nada que aceptar: abre la organización para continuar.",
    openOrganization: "Abrir organización",
  },
};
