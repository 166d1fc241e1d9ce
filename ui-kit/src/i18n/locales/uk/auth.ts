import type { Messages } from "../../types.js";

export const auth: Messages["auth"] = {
  signIn: {
    title: "Вхід",
    description: "З поверненням! Увійдіть, щоб продовжити.",
    submit: "Увійти",
    rememberMe: "Запам'ятати мене",
    forgotPassword: "Забули пароль?",
    noAccount: "Немає облікового запису?",
    signUpLink: "Зареєструватися",
    socialHeading: "Увійти через",
    emailNotVerified: "Спершу підтвердьте адресу електронної пошти: ми надіслали вам посилання.",
    resendVerification: "Надіслати посилання ще раз",
    verificationSent: ({ email }: { email: string }) => `Ми надіслали нове посилання на ${email}.`,
  },
};
