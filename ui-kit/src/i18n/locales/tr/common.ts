import { plural } from "../../plural.js";
import type { Messages } from "../../types.js";

export const common: Messages["common"] = {
  loading: "Yükleniyor…",
  or: "veya",
  cancel: "İptal",
  close: "Kapat",
  save: "Kaydet",
  saved: "Kaydedildi",
  continue: "Devam et",
  back: "Geri",
  remove: "Kaldır",
  edit: "Düzenle",
  retry: "Tekrar dene",
  email: "E-posta",
  password: "Şifre",
  name: "Ad",
  showPassword: "Şifreyi göster",
  hidePassword: "Şifreyi gizle",
  required: "Bu alan zorunludur.",
  invalidEmail: "Geçerli bir e-posta adresi girin.",
  invalidField: "Bu değer geçerli değil.",
  passwordTooShort: ({ min }: { min: number }) =>
    plural("tr", min, {
      one: "En az # karakter kullanın.",
      other: "En az # karakter kullanın.",
    }),
  passwordTooLong: ({ max }: { max: number }) =>
    plural("tr", max, {
      one: "En fazla # karakter kullanın.",
      other: "En fazla # karakter kullanın.",
    }),
  continueWith: ({ provider }: { provider: string }) => `${provider} ile devam et`,
  stepUp: {
    title: "Kimliğinizi doğrulayın",
    description: "Güvenliğiniz için devam etmek üzere şifrenizi yeniden girin.",
    descriptionSocial: "Güvenliğiniz için devam etmek üzere yeniden giriş yapın.",
    confirm: "Onayla",
  },
};
