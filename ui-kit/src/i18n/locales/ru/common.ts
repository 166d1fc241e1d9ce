import { plural } from "../../plural.js";
import type { Messages } from "../../types.js";

export const common: Messages["common"] = {
  loading: "Загрузка…",
  or: "или",
  cancel: "Отмена",
  close: "Закрыть",
  save: "Сохранить",
  saved: "Сохранено",
  continue: "Продолжить",
  back: "Назад",
  remove: "Удалить",
  edit: "Изменить",
  retry: "Повторить попытку",
  email: "Электронная почта",
  password: "Пароль",
  name: "Имя",
  showPassword: "Показать пароль",
  hidePassword: "Скрыть пароль",
  required: "Это поле обязательно.",
  invalidEmail: "Введите корректный адрес электронной почты.",
  invalidField: "Недопустимое значение.",
  passwordTooShort: ({ min }: { min: number }) =>
    plural("ru", min, {
      one: "Используйте не менее # символа.",
      other: "Используйте не менее # символов.",
    }),
  passwordTooLong: ({ max }: { max: number }) =>
    plural("ru", max, {
      one: "Используйте не более # символа.",
      other: "Используйте не более # символов.",
    }),
  continueWith: ({ provider }: { provider: string }) => `Продолжить через ${provider}`,
  stepUp: {
    title: "Подтвердите, что это вы",
    description: "В целях безопасности введите пароль ещё раз, чтобы продолжить.",
    descriptionSocial: "В целях безопасности войдите ещё раз, чтобы продолжить.",
    confirm: "Подтвердить",
  },
};
