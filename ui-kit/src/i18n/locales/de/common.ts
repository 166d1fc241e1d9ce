import { plural } from "../../plural.js";
import type { Messages } from "../../types.js";

export const common: Messages["common"] = {
  loading: "Wird geladen…",
  or: "oder",
  cancel: "Abbrechen",
  close: "Schließen",
  save: "Speichern",
  saved: "Gespeichert",
  continue: "Weiter",
  back: "Zurück",
  remove: "Entfernen",
  edit: "Bearbeiten",
  retry: "Erneut versuchen",
  email: "E-Mail",
  password: "Passwort",
  name: "Name",
  showPassword: "Passwort anzeigen",
  hidePassword: "Passwort verbergen",
  required: "Dieses Feld ist erforderlich.",
  invalidEmail: "Gib eine gültige E-Mail-Adresse ein.",
  invalidField: "Dieser Wert ist ungültig.",
  passwordTooShort: ({ min }: { min: number }) =>
    plural("de", min, {
      one: "Verwende mindestens # Zeichen.",
      other: "Verwende mindestens # Zeichen.",
    }),
  passwordTooLong: ({ max }: { max: number }) =>
    plural("de", max, {
      one: "Verwende höchstens # Zeichen.",
      other: "Verwende höchstens # Zeichen.",
    }),
  continueWith: ({ provider }: { provider: string }) => `Weiter mit ${provider}`,
  stepUp: {
    title: "Bestätige, dass du es bist",
    description: "Gib zu deiner Sicherheit dein Passwort erneut ein, um fortzufahren.",
    descriptionSocial: "Melde dich zu deiner Sicherheit erneut an, um fortzufahren.",
    confirm: "Bestätigen",
  },
};
