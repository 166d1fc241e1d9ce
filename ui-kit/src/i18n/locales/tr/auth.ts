import type { Messages } from "../../types.js";

export const auth: Messages["auth"] = {
  signIn: {
    title: "Giriş yap",
    description: "Tekrar hoş geldiniz. Devam etmek için giriş yapın.",
    submit: "Giriş yap",
    rememberMe: "Beni hatırla",
    forgotPassword: "Şifrenizi mi unuttunuz?",
    noAccount: "Hesabınız yok mu?",
    signUpLink: "Kaydolun",
    socialHeading: "Şununla giriş yap",
    emailNotVerified: "Önce e-posta adresinizi doğrulayın: size bir bağlantı gönderdik.",
    resendVerification: "Bağlantıyı yeniden gönder",
    verificationSent: ({ email }: { email: string }) =>
      `${email} adresine yeni bir bağlantı gönderdik.`,
  },
};
