import { plural } from "../../plural.js";
import type { Messages } from "../../types.js";

export const invitations: Messages["invitations"] = {
  title: "Zaproszenia",
  description: "Organizacje, które zaprosiły Cię do siebie.",
  loading: "Wczytywanie zaproszeń…",
  signedOut: "Zaloguj się, aby zobaczyć swoje zaproszenia.",
  empty: "Nie masz oczekujących zaproszeń.",
  count: ({ count }) =>
    plural("pl", count, {
      one: "Masz # oczekujące zaproszenie.",
      few: "Masz # oczekujące zaproszenia.",
      many: "Masz # oczekujących zaproszeń.",
      other: "Masz # oczekującego zaproszenia.",
    }),
  verificationRequired: "Potwierdź adres e-mail, aby zobaczyć wysłane na niego zaproszenia.",
  verificationHint: ({ email }) =>
    `Otwórz link weryfikacyjny, który wysłaliśmy na ${email}, i wróć tutaj.`,
  role: ({ role }) => `Rola: ${role}`,
  invitedBy: ({ email }) => `Zaprasza: ${email}`,
  expires: ({ date }) => `Ważne do ${date}`,
  expired: "Wygasło",
  expiredHint: "To zaproszenie wygasło. Poproś o nowe.",
  accept: "Przyjmij",
  acceptFor: ({ organization }) => `Przyjmij zaproszenie do ${organization}`,
  decline: "Odrzuć",
  declineFor: ({ organization }) => `Odrzuć zaproszenie do ${organization}`,
  declineTitle: ({ organization }) => `Odrzucić zaproszenie do ${organization}?`,
  declineDescription: "Aby dołączyć później, będziesz potrzebować nowego zaproszenia.",
  declineConfirm: "Odrzuć zaproszenie",
  accepted: ({ organization }) => `Dołączono do ${organization}.`,
  declined: ({ organization }) => `Odrzucono zaproszenie do ${organization}.`,
  page: {
    title: "Zaproszenie",
    loading: "Wczytywanie zaproszenia…",
    missingId: "Ten link nie zawiera zaproszenia. Otwórz ponownie link z wiadomości e-mail.",
    signedOutTitle: "Masz zaproszenie",
    signedOut:
      "Zaloguj się lub załóż konto przy użyciu adresu, na który przyszło zaproszenie. Potem wrócisz tutaj, aby je przyjąć.",
    signIn: "Zaloguj się",
    signUp: "Załóż konto",
    invitedTitle: ({ organization }) => `Dołącz do ${organization}`,
    invitedBy: ({ inviter, organization }) =>
      `${inviter} zaprasza Cię do organizacji ${organization}.`,
    role: ({ role }) => `Twoja rola: ${role}`,
    expires: ({ date }) => `Zaproszenie jest ważne do ${date}.`,
    accept: "Przyjmij zaproszenie",
    decline: "Odrzuć",
    acceptedTitle: ({ organization }) => `Witamy w ${organization}`,
    acceptedText: "Jesteś teraz członkiem organizacji.",
    continue: "Dalej",
    declinedTitle: "Zaproszenie odrzucone",
    declinedText: ({ organization }) => `Nie dołączysz do ${organization}.`,
    notFoundTitle: "To zaproszenie jest już nieważne",
    notFoundText:
      "Mogło wygasnąć, zostać anulowane albo już wykorzystane. Poproś osobę, która Cię zaprosiła, o nowe.",
    wrongRecipientTitle: "To zaproszenie jest dla innego adresu e-mail",
    wrongRecipientTo: ({ email, current }) =>
      `Zostało wysłane na ${email}, a jesteś zalogowany(-a) jako ${current}. Zaloguj się jako ${email}, aby je przyjąć.`,
    wrongRecipient: ({ current }) =>
      `Jesteś zalogowany(-a) jako ${current}, a zaproszenie wysłano na inny adres. Zaloguj się adresem, na który przyszło.`,
    signOutAndSignIn: "Wyloguj się i zaloguj na inne konto",
    verifyTitle: "Najpierw potwierdź adres e-mail",
    verifyText: ({ email }) =>
      `Otwórz link weryfikacyjny, który wysłaliśmy na ${email}, i wróć do tego zaproszenia.`,
    alreadyMemberTitle: ({ organization }) => `Już należysz do ${organization}`,
    alreadyMemberText: "Nie trzeba niczego przyjmować: po prostu otwórz organizację.",
    openOrganization: "Otwórz organizację",
  },
};
