import { plural } from "../../plural.js";
import type { Messages } from "../../types.js";

export const common: Messages["common"] = {
  loading: "Ładowanie…",
  or: "lub",
  cancel: "Anuluj",
  close: "Zamknij",
  save: "Zapisz",
  saved: "Zapisano",
  continue: "Dalej",
  back: "Wstecz",
  remove: "Usuń",
  edit: "Edytuj",
  retry: "Spróbuj ponownie",
  email: "E-mail",
  password: "Hasło",
  name: "Imię i nazwisko",
  showPassword: "Pokaż hasło",
  hidePassword: "Ukryj hasło",
  required: "To pole jest wymagane.",
  invalidEmail: "Wpisz prawidłowy adres e-mail.",
  invalidField: "Ta wartość jest nieprawidłowa.",
  passwordTooShort: ({ min }: { min: number }) =>
    plural("pl", min, {
      one: "Użyj co najmniej # znaku.",
      few: "Użyj co najmniej # znaków.",
      many: "Użyj co najmniej # znaków.",
      other: "Użyj co najmniej # znaku.",
    }),
  passwordTooLong: ({ max }: { max: number }) =>
    plural("pl", max, {
      one: "Użyj co najwyżej # znaku.",
      few: "Użyj co najwyżej # znaków.",
      many: "Użyj co najwyżej # znaków.",
      other: "Użyj co najwyżej # znaku.",
    }),
  continueWith: ({ provider }: { provider: string }) => `Kontynuuj z ${provider}`,
  stepUp: {
    title: "Potwierdź, że to Ty",
    description: "Ze względów bezpieczeństwa wpisz ponownie hasło, aby kontynuować.",
    descriptionSocial: "Ze względów bezpieczeństwa zaloguj się ponownie, aby kontynuować.",
    confirm: "Potwierdź",
  },
};
