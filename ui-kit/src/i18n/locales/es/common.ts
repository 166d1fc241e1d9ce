import { plural } from "../../plural.js";
import type { Messages } from "../../types.js";

export const common: Messages["common"] = {
  loading: "Cargando…",
  or: "o",
  cancel: "Cancelar",
  close: "Cerrar",
  save: "Guardar",
  saved: "Guardado",
  continue: "Continuar",
  back: "Atrás",
  remove: "Quitar",
  edit: "Editar",
  retry: "Reintentar",
  email: "Correo electrónico",
  password: "Contraseña",
  name: "Nombre",
  showPassword: "Mostrar contraseña",
  hidePassword: "Ocultar contraseña",
  required: "Este campo es obligatorio.",
  invalidEmail: "Introduce una dirección de correo electrónico válida.",
  invalidField: "Este valor no es válido.",
  passwordTooShort: ({ min }: { min: number }) =>
    plural("es", min, {
      one: "Usa al menos # carácter.",
      other: "Usa al menos # caracteres.",
    }),
  passwordTooLong: ({ max }: { max: number }) =>
    plural("es", max, {
      one: "Usa como máximo # carácter.",
      other: "Usa como máximo # caracteres.",
    }),
  continueWith: ({ provider }: { provider: string }) => `Continuar con ${provider}`,
  stepUp: {
    title: "Confirma que eres tú",
    description: "Por tu seguridad, vuelve a introducir tu contraseña para continuar.",
    descriptionSocial: "Por tu seguridad, vuelve a iniciar sesión para continuar.",
    confirm: "Confirmar",
  },
};
