import type { Messages } from "../../types.js";

export const account: Messages["account"] = {
  userButton: {
    openMenu: ({ name }: { name: string }) => `${name} hesap menüsü`,
    loading: "Hesabınız yükleniyor",
    signIn: "Giriş yap",
    account: "Hesap",
    organizations: "Kuruluşlar",
    personal: "Kişisel hesap",
    createOrganization: "Kuruluş oluştur",
    signOut: "Çıkış yap",
  },
  settings: {
    title: "Hesap",
    description: "Profilinizi, giriş yöntemlerinizi ve cihazlarınızı yönetin.",
    signedOut: "Hesabınızı yönetmek için giriş yapın.",
  },
  profile: {
    title: "Profil",
    imageUrl: "Profil fotoğrafı bağlantısı",
    imageHint: "Bir görselin bağlantısı; baş harflerinizin görünmesi için boş bırakın.",
    invalidImage: "https:// ile başlayan bir bağlantı girin.",
    saved: "Profiliniz kaydedildi.",
  },
  email: {
    title: "E-posta adresi",
    current: "Geçerli adres",
    verified: "Doğrulandı",
    unverified: "Doğrulanmadı",
    newEmail: "Yeni e-posta adresi",
    submit: "E-postayı değiştir",
    sentToCurrent: ({ email }: { email: string }) =>
      `Gelen kutunuzu kontrol edin: değişikliği onaylamanız için ${email} adresine bir bağlantı gönderdik.`,
    sentToNew: ({ email }: { email: string }) =>
      `Gelen kutunuzu kontrol edin: yeni adresi onaylamanız için ${email} adresine bir bağlantı gönderdik.`,
    changed: ({ email }: { email: string }) => `E-posta adresiniz artık ${email}.`,
    changedUnverified: ({ email }: { email: string }) =>
      `E-posta adresiniz artık ${email}. Bu adrese bir bağlantı gönderdik: adresi doğrulamak için bağlantıyı açın.`,
    linkFailed: "E-posta adresinizi değiştirme bağlantısı çalışmadı.",
  },
  password: {
    title: "Şifre",
    current: "Mevcut şifre",
    new: "Yeni şifre",
    revokeOtherSessions: "Diğer tüm cihazlarda oturumu kapat",
    submit: "Şifreyi değiştir",
    changed: "Şifreniz değiştirildi.",
    noPassword:
      "Bağlı bir hesapla giriş yapıyorsunuz ve henüz bir şifreniz yok. Şifre belirlemeniz için size e-postayla bir bağlantı göndereceğiz.",
    sendLink: "Şifre belirleme bağlantısı gönder",
    linkSent: ({ email }: { email: string }) =>
      `Gelen kutunuzu kontrol edin: şifrenizi belirlemeniz için ${email} adresine bir bağlantı gönderdik.`,
  },
  linkedAccounts: {
    title: "Giriş yöntemleri",
    credential: "E-posta ve şifre",
    linkedSince: ({ date }: { date: string }) => `Bağlanma tarihi: ${date}`,
    link: ({ provider }: { provider: string }) => `${provider} hesabını bağla`,
    unlink: "Bağlantıyı kaldır",
    unlinkLabel: ({ provider }: { provider: string }) => `${provider} bağlantısını kaldır`,
    confirmTitle: ({ provider }: { provider: string }) => `${provider} bağlantısı kaldırılsın mı?`,
    confirmDescription: "Artık bu hesapla giriş yapamayacaksınız.",
    unlinked: ({ provider }: { provider: string }) => `${provider} bağlantısı kaldırıldı.`,
  },
  sessions: {
    title: "Cihazlar",
    description: "Oturum açtığınız yerler.",
    device: ({ browser, os }: { browser: string; os: string }) => `${browser}, ${os}`,
    unknownDevice: "Bilinmeyen cihaz",
    unknownBrowser: "Tarayıcı",
    unknownOs: "bilinmeyen sistem",
    thisDevice: "Bu cihaz",
    lastActive: ({ when }: { when: string }) => `Son etkinlik: ${when}`,
    justNow: "az önce",
    ipAddress: ({ ip }: { ip: string }) => `IP adresi ${ip}`,
    revoke: "Oturumu kapat",
    revokeLabel: ({ device }: { device: string }) => `${device} oturumunu kapat`,
    revokeOthers: "Diğer tüm cihazlarda oturumu kapat",
    confirmRevokeOthers: "Diğer tüm cihazlarda oturum kapatılsın mı?",
    confirmRevokeOthersDescription:
      "Oturum açtığınız diğer tüm tarayıcı ve uygulamalarda yeniden giriş yapmanız gerekecek.",
    othersRevoked: "Diğer tüm cihazlarda oturumunuz kapatıldı.",
    revoked: "Cihazdaki oturum kapatıldı.",
    none: "Başka hiçbir cihazda oturum açık değil.",
  },
  deleteAccount: {
    title: "Hesabı sil",
    description:
      "Hesabınızı silmek profilinizi, giriş yöntemlerinizi ve üyeliklerinizi kaldırır. Bu işlem geri alınamaz.",
    open: "Hesabı sil…",
    confirmTitle: "Hesabınız silinsin mi?",
    confirmDescription: "Hesabınız ve ona bağlı her şey kalıcı olarak silinecek.",
    passwordHint: "Onaylamak için şifrenizi girin.",
    confirm: "Hesabımı sil",
    emailSent:
      "Gelen kutunuzu kontrol edin: size bir bağlantı gönderdik. Bağlantıyı açtığınızda hesabınız silinecek.",
    linkFailed: "Hesabınızı silme bağlantısı çalışmadı.",
  },
};
