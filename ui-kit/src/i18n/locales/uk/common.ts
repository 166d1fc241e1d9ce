import { plural } from "../../plural.js";
import type { Messages } from "../../types.js";

export const common: Messages["common"] = {
  loading: "Завантаження…",
  or: "або",
  cancel: "Скасувати",
  close: "Закрити",
  save: "Зберегти",
  saved: "Збережено",
  continue: "Продовжити",
  back: "Назад",
  remove: "Видалити",
  edit: "Редагувати",
  retry: "Спробувати ще раз",
  email: "Електронна пошта",
  password: "Пароль",
  name: "Ім'я",
  showPassword: "Показати пароль",
  hidePassword: "Приховати пароль",
  required: "Це поле обов'язкове.",
  invalidEmail: "Введіть дійсну адресу електронної пошти.",
  invalidField: "Неприпустиме значення.",
  passwordTooShort: ({ min }: { min: number }) =>
    plural("uk", min, {
      one: "Використайте щонайменше # символ.",
      few: "Використайте щонайменше # символи.",
      many: "Використайте щонайменше # символів.",
      other: "Використайте щонайменше # символу.",
    }),
  passwordTooLong: ({ max }: { max: number }) =>
    plural("uk", max, {
      one: "Використайте щонайбільше # символ.",
      few: "Використайте щонайбільше # символи.",
      many: "Використайте щонайбільше # символів.",
      other: "Використайте щонайбільше # символу.",
    }),
  continueWith: ({ provider }: { provider: string }) => `Продовжити через ${provider}`,
  stepUp: {
    title: "Підтвердьте, що це ви",
    description: "З міркувань безпеки введіть пароль ще раз, щоб продовжити.",
    descriptionSocial: "З міркувань безпеки увійдіть ще раз, щоб продовжити.",
    confirm: "Підтвердити",
  },
};
