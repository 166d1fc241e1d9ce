import type { Messages } from "../../types.js";

export const account: Messages["account"] = {
  userButton: {
    openMenu: ({ name }: { name: string }) => `Menú de la cuenta de ${name}`,
    loading: "Cargando tu cuenta",
    signIn: "Iniciar sesión",
    account: "Cuenta",
    organizations: "Organizaciones",
    personal: "Cuenta personal",
    createOrganization: "Crear organización",
    signOut: "Cerrar sesión",
  },
  settings: {
    title: "Cuenta",
    description: "Gestiona tu perfil, tus métodos de inicio de sesión y tus dispositivos.",
    signedOut: "Inicia sesión para gestionar tu cuenta.",
  },
  profile: {
    title: "Perfil",
    imageUrl: "URL de la foto de perfil",
    imageHint: "Un enlace a una imagen; déjalo vacío para mostrar tus iniciales.",
    invalidImage: "Introduce un enlace que empiece por https://.",
    saved: "Tu perfil se ha guardado.",
  },
  email: {
    title: "Correo electrónico",
    current: "Dirección actual",
    verified: "Verificado",
    unverified: "Sin verificar",
    newEmail: "Nuevo correo electrónico",
    submit: "Cambiar correo",
    sentToCurrent: ({ email }: { email: string }) =>
      `Revisa tu bandeja de entrada: hemos enviado a ${email} un enlace para confirmar el cambio.`,
    sentToNew: ({ email }: { email: string }) =>
      `Revisa tu bandeja de entrada: hemos enviado a ${email} un enlace para confirmar la nueva dirección.`,
    changed: ({ email }: { email: string }) => `Tu correo electrónico ahora es ${email}.`,
    changedUnverified: ({ email }: { email: string }) =>
      `Tu correo electrónico ahora es ${email}. Te hemos enviado un enlace a esa dirección: ábrelo para verificarla.`,
    linkFailed: "El enlace para cambiar tu correo electrónico no ha funcionado.",
  },
  password: {
    title: "Contraseña",
    current: "Contraseña actual",
    new: "Nueva contraseña",
    revokeOtherSessions: "Cerrar sesión en todos los demás dispositivos",
    submit: "Cambiar contraseña",
    changed: "Tu contraseña se ha cambiado.",
    noPassword:
      "Inicias sesión con una cuenta vinculada y aún no tienes contraseña. Para crear una, te enviaremos un enlace por correo.",
    sendLink: "Enviarme un enlace para crear una contraseña",
    linkSent: ({ email }: { email: string }) =>
      `Revisa tu bandeja de entrada: hemos enviado a ${email} un enlace para crear tu contraseña.`,
  },
  linkedAccounts: {
    title: "Métodos de inicio de sesión",
    credential: "Correo y contraseña",
    linkedSince: ({ date }: { date: string }) => `Vinculada el ${date}`,
    link: ({ provider }: { provider: string }) => `Vincular ${provider}`,
    unlink: "Desvincular",
    unlinkLabel: ({ provider }: { provider: string }) => `Desvincular ${provider}`,
    confirmTitle: ({ provider }: { provider: string }) => `¿Desvincular ${provider}?`,
    confirmDescription: "Ya no podrás iniciar sesión con esta cuenta.",
    unlinked: ({ provider }: { provider: string }) => `${provider} ya no está vinculada.`,
  },
  sessions: {
    title: "Dispositivos",
    description: "Dónde has iniciado sesión.",
    device: ({ browser, os }: { browser: string; os: string }) => `${browser} en ${os}`,
    unknownDevice: "Dispositivo desconocido",
    unknownBrowser: "Navegador",
    unknownOs: "un sistema desconocido",
    thisDevice: "Este dispositivo",
    lastActive: ({ when }: { when: string }) => `Última actividad: ${when}`,
    justNow: "ahora mismo",
    ipAddress: ({ ip }: { ip: string }) => `Dirección IP ${ip}`,
    revoke: "Cerrar sesión",
    revokeLabel: ({ device }: { device: string }) => `Cerrar sesión en ${device}`,
    revokeOthers: "Cerrar sesión en todos los demás dispositivos",
    confirmRevokeOthers: "¿Cerrar sesión en todos los demás dispositivos?",
    confirmRevokeOthersDescription:
      "Tendrás que volver a iniciar sesión en todos los demás navegadores y aplicaciones.",
    othersRevoked: "Has cerrado sesión en todos los demás dispositivos.",
    revoked: "Se ha cerrado la sesión en el dispositivo.",
    none: "No hay sesiones abiertas en otros dispositivos.",
  },
  deleteAccount: {
    title: "Eliminar cuenta",
    description:
      "Al eliminar tu cuenta se borran tu perfil, tus métodos de inicio de sesión y tus membresías. No se puede deshacer.",
    open: "Eliminar cuenta…",
    confirmTitle: "¿Eliminar tu cuenta?",
    confirmDescription: "Tu cuenta y todo lo vinculado a ella se eliminarán para siempre.",
    passwordHint: "Introduce tu contraseña para confirmar.",
    confirm: "Eliminar mi cuenta",
    emailSent:
      "Revisa tu bandeja de entrada: te hemos enviado un enlace. Tu cuenta se eliminará cuando lo abras.",
    linkFailed: "El enlace para eliminar tu cuenta no ha funcionado.",
  },
};
