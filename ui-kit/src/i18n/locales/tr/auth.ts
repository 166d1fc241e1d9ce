import { plural } from "../../plural.js";
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
  signUp: {
    title: "Hesabınızı oluşturun",
    description: "Başlamak için bilgilerinizi girin.",
    submit: "Hesap oluştur",
    passwordHint: ({ min }: { min: number }) =>
      plural("tr", min, { one: "En az # karakter.", other: "En az # karakter." }),
    imageLabel: "Profil fotoğrafı URL'si",
    imageHint: "İsteğe bağlı: bir fotoğrafınızın bağlantısı.",
    invalidImage: "https:// ile başlayan tam bir web adresi girin.",
    haveAccount: "Zaten hesabınız var mı?",
    signInLink: "Giriş yapın",
    checkEmailTitle: "Gelen kutunuza bakın",
    checkEmail: ({ email }: { email: string }) =>
      `${email} adresine bir bağlantı gönderdik. Adresinizi doğrulamak ve kaydı tamamlamak için bağlantıyı açın.`,
    useAnotherEmail: "Başka bir e-posta kullan",
  },
  forgotPassword: {
    title: "Şifrenizi mi unuttunuz?",
    description:
      "E-posta adresinizi girin, yeni bir şifre belirlemeniz için size bir bağlantı gönderelim.",
    submit: "Bağlantıyı gönder",
    sentTitle: "Gelen kutunuza bakın",
    sent: ({ email }: { email: string }) =>
      `${email} adresine ait bir hesap varsa, şifre sıfırlama bağlantısı yola çıktı. Bağlantı yalnızca bir kez kullanılabilir.`,
    useAnotherEmail: "Başka bir e-posta kullan",
    backToSignIn: "Girişe dön",
  },
  resetPassword: {
    title: "Yeni bir şifre belirleyin",
    description: "Hesabınızın yeni şifresini iki kez girin.",
    newPassword: "Yeni şifre",
    confirmPassword: "Yeni şifreyi tekrarlayın",
    mismatch: "Şifreler eşleşmiyor.",
    submit: "Şifreyi kaydet",
    doneTitle: "Şifre değiştirildi",
    done: "Şifreniz değiştirildi. Yeni şifrenizle giriş yapın.",
    signIn: "Giriş yap",
    invalidTitle: "Bu bağlantı çalışmıyor",
    invalid: "Bağlantı geçersiz ya da daha önce kullanılmış. Yeni bir bağlantı isteyin.",
    expired: "Bağlantının süresi dolmuş. Yeni bir bağlantı isteyin.",
    requestNew: "Yeni bağlantı iste",
  },
  verifyEmail: {
    verifyingTitle: "E-posta adresiniz doğrulanıyor",
    verifying: "Adresiniz kontrol ediliyor…",
    verifiedTitle: "E-posta doğrulandı",
    verified: "Teşekkürler, e-posta adresiniz doğrulandı.",
    alreadyVerified: "E-posta adresiniz zaten doğrulanmış.",
    continue: "Devam et",
    failedTitle: "E-posta adresiniz doğrulanamadı",
    signInForNewLink: "Yeni bağlantı almak için giriş yapın",
    unverifiedTitle: "E-posta adresinizi doğrulayın",
    unverified: ({ email }: { email: string }) =>
      `Adresinizi doğrulamak için ${email} adresine gönderdiğimiz bağlantıyı açın. E-posta gelmedi mi? Yeniden gönderebiliriz.`,
    resend: "Bağlantıyı yeniden gönder",
    sentTitle: "Gelen kutunuza bakın",
    sent: ({ email }: { email: string }) => `${email} adresine yeni bir bağlantı gönderdik.`,
    signedOut: "Adresinizi doğrulamak için size gönderdiğimiz e-postadaki bağlantıyı açın.",
    signIn: "Giriş yap",
  },
};
