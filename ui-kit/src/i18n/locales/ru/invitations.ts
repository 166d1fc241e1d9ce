import { plural } from "../../plural.js";
import type { Messages } from "../../types.js";

export const invitations: Messages["invitations"] = {
  title: "Приглашения",
  description: "Организации, которые пригласили вас присоединиться.",
  loading: "Загружаем приглашения…",
  signedOut: "Войдите, чтобы увидеть свои приглашения.",
  empty: "У вас нет ожидающих приглашений.",
  count: ({ count }) =>
    plural("ru", count, {
      one: "У вас # ожидающее приглашение.",
      few: "У вас # ожидающих приглашения.",
      many: "У вас # ожидающих приглашений.",
      other: "У вас # ожидающего приглашения.",
    }),
  verificationRequired:
    "Подтвердите адрес электронной почты, чтобы увидеть отправленные на него приглашения.",
  verificationHint: ({ email }) =>
    `Откройте ссылку для подтверждения, которую мы отправили на ${email}, и вернитесь сюда.`,
  role: ({ role }) => `Роль: ${role}`,
  invitedBy: ({ email }) => `Пригласил(а) ${email}`,
  expires: ({ date }) => `Действует до ${date}`,
  expired: "Срок истёк",
  expiredHint: "Срок действия этого приглашения истёк. Попросите прислать новое.",
  accept: "Принять",
  acceptFor: ({ organization }) => `Принять приглашение в ${organization}`,
  decline: "Отклонить",
  declineFor: ({ organization }) => `Отклонить приглашение в ${organization}`,
  declineTitle: ({ organization }) => `Отклонить приглашение в ${organization}?`,
  declineDescription: "Чтобы присоединиться позже, понадобится новое приглашение.",
  declineConfirm: "Отклонить приглашение",
  accepted: ({ organization }) => `Вы присоединились к ${organization}.`,
  declined: ({ organization }) => `Вы отклонили приглашение в ${organization}.`,
  page: {
    title: "Приглашение",
    loading: "Загружаем приглашение…",
    missingId: "В этой ссылке нет приглашения. Откройте ссылку из письма ещё раз.",
    signedOutTitle: "Вас пригласили",
    signedOut:
      "Войдите или создайте аккаунт с адресом, на который пришло приглашение. После этого вы вернётесь сюда, чтобы принять его.",
    signIn: "Войти",
    signUp: "Создать аккаунт",
    invitedTitle: ({ organization }) => `Присоединиться к ${organization}`,
    invitedBy: ({ inviter, organization }) =>
      `${inviter} приглашает вас присоединиться к ${organization}.`,
    role: ({ role }) => `Ваша роль: ${role}`,
    expires: ({ date }) => `Приглашение действует до ${date}.`,
    accept: "Принять приглашение",
    decline: "Отклонить",
    acceptedTitle: ({ organization }) => `Добро пожаловать в ${organization}`,
    acceptedText: "Теперь вы участник организации.",
    continue: "Продолжить",
    declinedTitle: "Приглашение отклонено",
    declinedText: ({ organization }) => `Вы не присоединитесь к ${organization}.`,
    notFoundTitle: "Это приглашение больше не действует",
    notFoundText:
      "Возможно, его срок истёк, его отменили или им уже воспользовались. Попросите пригласившего вас человека отправить новое.",
    wrongRecipientTitle: "Это приглашение для другого адреса",
    wrongRecipientTo: ({ email, current }) =>
      `Оно отправлено на ${email}, а вы вошли как ${current}. Войдите с адресом ${email}, чтобы принять его.`,
    wrongRecipient: ({ current }) =>
      `Вы вошли как ${current}, а приглашение отправлено на другой адрес. Войдите с тем адресом, на который оно пришло.`,
    signOutAndSignIn: "Выйти и войти в другой аккаунт",
    verifyTitle: "Сначала подтвердите адрес электронной почты",
    verifyText: ({ email }) =>
      `Откройте ссылку для подтверждения, которую мы отправили на ${email}, и вернитесь к этому приглашению.`,
    alreadyMemberTitle: ({ organization }) => `Вы уже состоите в ${organization}`,
    alreadyMemberText: "Принимать ничего не нужно — просто откройте организацию.",
    openOrganization: "Открыть организацию",
  },
};
