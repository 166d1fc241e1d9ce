import { plural } from "../../plural.js";
import type { Messages } from "../../types.js";

export const invitations: Messages["invitations"] = {
  title: "Davetler",
  description: "Sizi katılmaya davet eden kuruluşlar.",
  loading: "Davetler yükleniyor…",
  signedOut: "Davetlerinizi görmek için oturum açın.",
  empty: "Bekleyen davetiniz yok.",
  count: ({ count }) =>
    plural("tr", count, {
      one: "# bekleyen davetiniz var.",
      other: "# bekleyen davetiniz var.",
    }),
  verificationRequired:
    "Adresinize gönderilen davetleri görmek için e-posta adresinizi doğrulayın.",
  verificationHint: ({ email }) =>
    `${email} adresine gönderdiğimiz doğrulama bağlantısını açın, ardından buraya dönün.`,
  role: ({ role }) => `Rol: ${role}`,
  invitedBy: ({ email }) => `Davet eden: ${email}`,
  expires: ({ date }) => `Son geçerlilik: ${date}`,
  expired: "Süresi doldu",
  expiredHint: "Bu davetin süresi doldu. Yeni bir davet isteyin.",
  accept: "Kabul et",
  acceptFor: ({ organization }) => `${organization} davetini kabul et`,
  decline: "Reddet",
  declineFor: ({ organization }) => `${organization} davetini reddet`,
  declineTitle: ({ organization }) => `${organization} daveti reddedilsin mi?`,
  declineDescription: "Daha sonra katılmak için yeni bir davete ihtiyacınız olacak.",
  declineConfirm: "Daveti reddet",
  accepted: ({ organization }) => `${organization} kuruluşuna katıldınız.`,
  declined: ({ organization }) => `${organization} davetini reddettiniz.`,
  page: {
    title: "Davet",
    loading: "Davet yükleniyor…",
    missingId: "Bu bağlantıda bir davet yok. E-postadaki bağlantıyı yeniden açın.",
    signedOutTitle: "Davet edildiniz",
    signedOut:
      "Davetin gönderildiği e-posta adresiyle oturum açın ya da hesap oluşturun. Ardından daveti kabul etmek için buraya döneceksiniz.",
    signIn: "Oturum aç",
    signUp: "Hesap oluştur",
    invitedTitle: ({ organization }) => `${organization} kuruluşuna katılın`,
    invitedBy: ({ inviter, organization }) =>
      `${inviter} sizi ${organization} kuruluşuna katılmaya davet etti.`,
    role: ({ role }) => `Rolünüz: ${role}`,
    expires: ({ date }) => `Davet ${date} tarihine kadar geçerli.`,
    accept: "Daveti kabul et",
    decline: "Reddet",
    acceptedTitle: ({ organization }) => `${organization} kuruluşuna hoş geldiniz`,
    acceptedText: "Artık kuruluşun bir üyesisiniz.",
    continue: "Devam et",
    declinedTitle: "Davet reddedildi",
    declinedText: ({ organization }) => `${organization} kuruluşuna katılmayacaksınız.`,
    notFoundTitle: "Bu davet artık geçerli değil",
    notFoundText:
      "Süresi dolmuş, iptal edilmiş ya da zaten kullanılmış olabilir. Sizi davet eden kişiden yeni bir davet isteyin.",
    wrongRecipientTitle: "Bu davet başka bir e-posta adresi için",
    wrongRecipientTo: ({ email, current }) =>
      `Davet ${email} adresine gönderildi, ancak ${current} olarak oturum açtınız. Kabul etmek için ${email} ile oturum açın.`,
    wrongRecipient: ({ current }) =>
      `${current} olarak oturum açtınız, ancak davet başka bir adrese gönderildi. Daveti alan adresle oturum açın.`,
    signOutAndSignIn: "Oturumu kapat ve başka bir hesapla aç",
    verifyTitle: "Önce e-posta adresinizi doğrulayın",
    verifyText: ({ email }) =>
      `${email} adresine gönderdiğimiz doğrulama bağlantısını açın, ardından bu davete dönün.`,
    alreadyMemberTitle: ({ organization }) => `Zaten ${organization} üyesisiniz`,
    alreadyMemberText: "Kabul edilecek bir şey yok: kuruluşu açarak devam edin.",
    openOrganization: "Kuruluşu aç",
  },
};
