import type { Messages } from "../../types.js";

export const account: Messages["account"] = {
  userButton: {
    openMenu: ({ name }: { name: string }) => `Меню облікового запису: ${name}`,
    loading: "Завантаження облікового запису",
    signIn: "Увійти",
    account: "Обліковий запис",
    organizations: "Організації",
    personal: "Особистий обліковий запис",
    createOrganization: "Створити організацію",
    signOut: "Вийти",
  },
  settings: {
    title: "Обліковий запис",
    description: "Профіль, способи входу та пристрої.",
    signedOut: "Увійдіть, щоб керувати обліковим записом.",
  },
  profile: {
    title: "Профіль",
    imageUrl: "Посилання на фото профілю",
    imageHint: "Посилання на зображення; залиште порожнім, щоб показувати ініціали.",
    invalidImage: "Введіть посилання, що починається з https://.",
    saved: "Профіль збережено.",
  },
  email: {
    title: "Адреса електронної пошти",
    current: "Поточна адреса",
    verified: "Підтверджено",
    unverified: "Не підтверджено",
    newEmail: "Нова адреса електронної пошти",
    submit: "Змінити адресу",
    sentToCurrent: ({ email }: { email: string }) =>
      `Перевірте пошту: ми надіслали на ${email} посилання для підтвердження зміни.`,
    sentToNew: ({ email }: { email: string }) =>
      `Перевірте пошту: ми надіслали на ${email} посилання для підтвердження нової адреси.`,
    changed: ({ email }: { email: string }) => `Ваша адреса електронної пошти тепер ${email}.`,
    changedUnverified: ({ email }: { email: string }) =>
      `Ваша адреса електронної пошти тепер ${email}. Ми надіслали на неї посилання: перейдіть за ним, щоб підтвердити адресу.`,
    linkFailed: "Посилання для зміни адреси електронної пошти не спрацювало.",
  },
  password: {
    title: "Пароль",
    current: "Поточний пароль",
    new: "Новий пароль",
    revokeOtherSessions: "Вийти на всіх інших пристроях",
    submit: "Змінити пароль",
    changed: "Пароль змінено.",
    noPassword:
      "Ви входите через прив’язаний обліковий запис і ще не маєте пароля. Щоб установити його, ми надішлемо посилання на пошту.",
    sendLink: "Надіслати посилання для створення пароля",
    linkSent: ({ email }: { email: string }) =>
      `Перевірте пошту: ми надіслали на ${email} посилання для створення пароля.`,
  },
  linkedAccounts: {
    title: "Способи входу",
    credential: "Пошта й пароль",
    linkedSince: ({ date }: { date: string }) => `Прив’язано ${date}`,
    link: ({ provider }: { provider: string }) => `Прив’язати ${provider}`,
    unlink: "Від’єднати",
    unlinkLabel: ({ provider }: { provider: string }) => `Від’єднати ${provider}`,
    confirmTitle: ({ provider }: { provider: string }) => `Від’єднати ${provider}?`,
    confirmDescription: "Ви більше не зможете входити за його допомогою.",
    unlinked: ({ provider }: { provider: string }) => `${provider} більше не прив’язано.`,
  },
  sessions: {
    title: "Пристрої",
    description: "Де виконано вхід у ваш обліковий запис.",
    device: ({ browser, os }: { browser: string; os: string }) => `${browser}, ${os}`,
    unknownDevice: "Невідомий пристрій",
    unknownBrowser: "Браузер",
    unknownOs: "невідома система",
    thisDevice: "Цей пристрій",
    lastActive: ({ when }: { when: string }) => `Активність: ${when}`,
    justNow: "щойно",
    ipAddress: ({ ip }: { ip: string }) => `IP-адреса ${ip}`,
    revoke: "Вийти",
    revokeLabel: ({ device }: { device: string }) => `Вийти на пристрої ${device}`,
    revokeOthers: "Вийти на всіх інших пристроях",
    confirmRevokeOthers: "Вийти на всіх інших пристроях?",
    confirmRevokeOthersDescription:
      "У всіх інших браузерах і застосунках, де виконано вхід, доведеться увійти знову.",
    othersRevoked: "Ви вийшли на всіх інших пристроях.",
    revoked: "Вихід на пристрої виконано.",
    none: "На інших пристроях вхід не виконано.",
  },
  deleteAccount: {
    title: "Видалення облікового запису",
    description:
      "Під час видалення облікового запису видаляються профіль, способи входу й членство в організаціях. Цю дію не можна скасувати.",
    open: "Видалити обліковий запис…",
    confirmTitle: "Видалити обліковий запис?",
    confirmDescription: "Обліковий запис і все, що з ним пов’язано, буде видалено назавжди.",
    passwordHint: "Введіть пароль для підтвердження.",
    confirm: "Видалити мій обліковий запис",
    emailSent:
      "Перевірте пошту: ми надіслали вам посилання. Обліковий запис буде видалено, щойно ви за ним перейдете.",
    linkFailed: "Посилання для видалення облікового запису не спрацювало.",
  },
};
