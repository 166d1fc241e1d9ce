import { plural } from "../../plural.js";
import type { Messages } from "../../types.js";

export const invitations: Messages["invitations"] = {
  title: "Запрошення",
  description: "Організації, які запросили вас приєднатися.",
  loading: "Завантажуємо запрошення…",
  signedOut: "Увійдіть, щоб побачити свої запрошення.",
  empty: "У вас немає запрошень, що очікують відповіді.",
  count: ({ count }) =>
    plural("uk", count, {
      one: "У вас # запрошення, що очікує відповіді.",
      few: "У вас # запрошення, що очікують відповіді.",
      many: "У вас # запрошень, що очікують відповіді.",
      other: "У вас # запрошення, що очікують відповіді.",
    }),
  verificationRequired:
    "Підтвердьте адресу електронної пошти, щоб побачити надіслані на неї запрошення.",
  verificationHint: ({ email }) =>
    `Відкрийте посилання для підтвердження, яке ми надіслали на ${email}, і поверніться сюди.`,
  role: ({ role }) => `Роль: ${role}`,
  invitedBy: ({ email }) => `Запросив(ла) ${email}`,
  expires: ({ date }) => `Дійсне до ${date}`,
  expired: "Термін минув",
  expiredHint: "Термін дії цього запрошення минув. Попросіть надіслати нове.",
  accept: "Прийняти",
  acceptFor: ({ organization }) => `Прийняти запрошення до ${organization}`,
  decline: "Відхилити",
  declineFor: ({ organization }) => `Відхилити запрошення до ${organization}`,
  declineTitle: ({ organization }) => `Відхилити запрошення до ${organization}?`,
  declineDescription: "Щоб приєднатися пізніше, знадобиться нове запрошення.",
  declineConfirm: "Відхилити запрошення",
  accepted: ({ organization }) => `Ви приєдналися до ${organization}.`,
  declined: ({ organization }) => `Ви відхилили запрошення до ${organization}.`,
  page: {
    title: "Запрошення",
    loading: "Завантажуємо запрошення…",
    missingId: "У цьому посиланні немає запрошення. Відкрийте посилання з листа ще раз.",
    signedOutTitle: "Вас запросили",
    signedOut:
      "Увійдіть або створіть обліковий запис з адресою, на яку прийшло запрошення. Після цього ви повернетеся сюди, щоб прийняти його.",
    signIn: "Увійти",
    signUp: "Створити обліковий запис",
    invitedTitle: ({ organization }) => `Приєднатися до ${organization}`,
    invitedBy: ({ inviter, organization }) =>
      `${inviter} запрошує вас приєднатися до ${organization}.`,
    role: ({ role }) => `Ваша роль: ${role}`,
    expires: ({ date }) => `Запрошення дійсне до ${date}.`,
    accept: "Прийняти запрошення",
    decline: "Відхилити",
    acceptedTitle: ({ organization }) => `Ласкаво просимо до ${organization}`,
    acceptedText: "Тепер ви учасник організації.",
    continue: "Продовжити",
    declinedTitle: "Запрошення відхилено",
    declinedText: ({ organization }) => `Ви не приєднаєтеся до ${organization}.`,
    notFoundTitle: "Це запрошення більше не дійсне",
    notFoundText:
      "Можливо, термін його дії минув, його скасували або ним уже скористалися. Попросіть людину, яка вас запросила, надіслати нове.",
    wrongRecipientTitle: "Це запрошення для іншої адреси",
    wrongRecipientTo: ({ email, current }) =>
      `Його надіслано на ${email}, а ви увійшли як ${current}. Увійдіть з адресою ${email}, щоб прийняти його.`,
    wrongRecipient: ({ current }) =>
      `Ви увійшли як ${current}, а запрошення надіслано на іншу адресу. Увійдіть з адресою, на яку воно прийшло.`,
    signOutAndSignIn: "Вийти й увійти в інший обліковий запис",
    verifyTitle: "Спершу підтвердьте адресу електронної пошти",
    verifyText: ({ email }) =>
      `Відкрийте посилання для підтвердження, яке ми надіслали на ${email}, і поверніться до цього запрошення.`,
    alreadyMemberTitle: ({ organization }) => `Ви вже входите до ${organization}`,
    alreadyMemberText: "Нічого приймати не потрібно — просто відкрийте організацію.",
    openOrganization: "Відкрити організацію",
  },
};
