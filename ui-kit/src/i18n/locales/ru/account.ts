import type { Messages } from "../../types.js";

export const account: Messages["account"] = {
  userButton: {
    openMenu: ({ name }: { name: string }) => `Меню аккаунта: ${name}`,
    loading: "Загрузка аккаунта",
    signIn: "Войти",
    account: "Аккаунт",
    organizations: "Организации",
    personal: "Личный аккаунт",
    createOrganization: "Создать организацию",
    signOut: "Выйти",
  },
  settings: {
    title: "Аккаунт",
    description: "Профиль, способы входа и устройства.",
    signedOut: "Войдите, чтобы управлять аккаунтом.",
  },
  profile: {
    title: "Профиль",
    imageUrl: "Ссылка на фото профиля",
    imageHint: "Ссылка на изображение; оставьте пустым, чтобы показывать инициалы.",
    invalidImage: "Введите ссылку, начинающуюся с https://.",
    saved: "Профиль сохранён.",
  },
  email: {
    title: "Адрес электронной почты",
    current: "Текущий адрес",
    verified: "Подтверждён",
    unverified: "Не подтверждён",
    newEmail: "Новый адрес электронной почты",
    submit: "Изменить адрес",
    sentToCurrent: ({ email }: { email: string }) =>
      `Проверьте почту: мы отправили на ${email} ссылку для подтверждения изменения.`,
    sentToNew: ({ email }: { email: string }) =>
      `Проверьте почту: мы отправили на ${email} ссылку для подтверждения нового адреса.`,
    changed: ({ email }: { email: string }) => `Ваш адрес электронной почты теперь ${email}.`,
    changedUnverified: ({ email }: { email: string }) =>
      `Ваш адрес электронной почты теперь ${email}. Мы отправили на него ссылку: перейдите по ней, чтобы подтвердить адрес.`,
    linkFailed: "Ссылка для смены адреса электронной почты не сработала.",
  },
  password: {
    title: "Пароль",
    current: "Текущий пароль",
    new: "Новый пароль",
    revokeOtherSessions: "Выйти на всех остальных устройствах",
    submit: "Изменить пароль",
    changed: "Пароль изменён.",
    noPassword:
      "Вы входите через привязанный аккаунт, и пароля у вас пока нет. Чтобы задать его, мы пришлём ссылку на почту.",
    sendLink: "Прислать ссылку для создания пароля",
    linkSent: ({ email }: { email: string }) =>
      `Проверьте почту: мы отправили на ${email} ссылку для создания пароля.`,
  },
  linkedAccounts: {
    title: "Способы входа",
    credential: "Почта и пароль",
    linkedSince: ({ date }: { date: string }) => `Привязан ${date}`,
    link: ({ provider }: { provider: string }) => `Привязать ${provider}`,
    unlink: "Отвязать",
    unlinkLabel: ({ provider }: { provider: string }) => `Отвязать ${provider}`,
    confirmTitle: ({ provider }: { provider: string }) => `Отвязать ${provider}?`,
    confirmDescription: "Вы больше не сможете входить с его помощью.",
    unlinked: ({ provider }: { provider: string }) => `${provider} больше не привязан.`,
  },
  sessions: {
    title: "Устройства",
    description: "Где выполнен вход в ваш аккаунт.",
    device: ({ browser, os }: { browser: string; os: string }) => `${browser}, ${os}`,
    unknownDevice: "Неизвестное устройство",
    unknownBrowser: "Браузер",
    unknownOs: "неизвестная система",
    thisDevice: "Это устройство",
    lastActive: ({ when }: { when: string }) => `Активность: ${when}`,
    justNow: "только что",
    ipAddress: ({ ip }: { ip: string }) => `IP-адрес ${ip}`,
    revoke: "Выйти",
    revokeLabel: ({ device }: { device: string }) => `Выйти на устройстве ${device}`,
    revokeOthers: "Выйти на всех остальных устройствах",
    confirmRevokeOthers: "Выйти на всех остальных устройствах?",
    confirmRevokeOthersDescription:
      "Во всех остальных браузерах и приложениях, где выполнен вход, придётся войти заново.",
    othersRevoked: "Вы вышли на всех остальных устройствах.",
    revoked: "Выход на устройстве выполнен.",
    none: "На других устройствах вход не выполнен.",
  },
  deleteAccount: {
    title: "Удаление аккаунта",
    description:
      "При удалении аккаунта удаляются профиль, способы входа и членство в организациях. Это действие нельзя отменить.",
    open: "Удалить аккаунт…",
    confirmTitle: "Удалить аккаунт?",
    confirmDescription: "Аккаунт и всё, что с ним связано, будут удалены навсегда.",
    passwordHint: "Введите пароль для подтверждения.",
    confirm: "Удалить мой аккаунт",
    emailSent:
      "Проверьте почту: мы отправили вам ссылку. Аккаунт будет удалён, когда вы по ней перейдёте.",
    linkFailed: "Ссылка для удаления аккаунта не сработала.",
  },
};
