import type { Messages } from "../../types.js";

export const auth: Messages["auth"] = {
  signIn: {
    title: "Iniciar sesión",
    description: "Hola de nuevo. Inicia sesión para continuar.",
    submit: "Iniciar sesión",
    rememberMe: "Recordarme",
    forgotPassword: "¿Olvidaste tu contraseña?",
    noAccount: "¿No tienes una cuenta?",
    signUpLink: "Regístrate",
    socialHeading: "Iniciar sesión con",
    emailNotVerified: "Primero verifica tu correo electrónico: te enviamos un enlace.",
    resendVerification: "Enviar el enlace de nuevo",
    verificationSent: ({ email }: { email: string }) => `Enviamos un nuevo enlace a ${email}.`,
  },
};
