import type { Messages } from "../../types.js";

export const auth: Messages["auth"] = {
  signIn: {
    title: "Вход",
    description: "С возвращением! Войдите, чтобы продолжить.",
    submit: "Войти",
    rememberMe: "Запомнить меня",
    forgotPassword: "Забыли пароль?",
    noAccount: "Нет аккаунта?",
    signUpLink: "Зарегистрироваться",
    socialHeading: "Войти через",
    emailNotVerified: "Сначала подтвердите адрес электронной почты: мы отправили вам ссылку.",
    resendVerification: "Отправить ссылку ещё раз",
    verificationSent: ({ email }: { email: string }) => `Мы отправили новую ссылку на ${email}.`,
  },
};
