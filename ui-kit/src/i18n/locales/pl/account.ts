import type { Messages } from "../../types.js";

export const account: Messages["account"] = {
  userButton: {
    openMenu: ({ name }: { name: string }) => `Menu konta: ${name}`,
    loading: "Wczytywanie konta",
    signIn: "Zaloguj się",
    account: "Konto",
    organizations: "Organizacje",
    personal: "Konto osobiste",
    createOrganization: "Utwórz organizację",
    signOut: "Wyloguj się",
  },
  settings: {
    title: "Konto",
    description: "Zarządzaj profilem, metodami logowania i urządzeniami.",
    signedOut: "Zaloguj się, aby zarządzać kontem.",
  },
  profile: {
    title: "Profil",
    imageUrl: "Adres URL zdjęcia profilowego",
    imageHint: "Link do obrazu; zostaw puste, aby wyświetlać inicjały.",
    invalidImage: "Wpisz link zaczynający się od https://.",
    saved: "Profil został zapisany.",
  },
  email: {
    title: "Adres e-mail",
    current: "Obecny adres",
    verified: "Potwierdzony",
    unverified: "Niepotwierdzony",
    newEmail: "Nowy adres e-mail",
    submit: "Zmień adres e-mail",
    sentToCurrent: ({ email }: { email: string }) =>
      `Sprawdź skrzynkę: wysłaliśmy na adres ${email} link do potwierdzenia zmiany.`,
    sentToNew: ({ email }: { email: string }) =>
      `Sprawdź skrzynkę: wysłaliśmy na adres ${email} link do potwierdzenia nowego adresu.`,
    changed: ({ email }: { email: string }) => `Twój adres e-mail to teraz ${email}.`,
    changedUnverified: ({ email }: { email: string }) =>
      `Twój adres e-mail to teraz ${email}. Wysłaliśmy na niego link: otwórz go, aby potwierdzić adres.`,
    linkFailed: "Link do zmiany adresu e-mail nie zadziałał.",
  },
  password: {
    title: "Hasło",
    current: "Obecne hasło",
    new: "Nowe hasło",
    revokeOtherSessions: "Wyloguj mnie na wszystkich innych urządzeniach",
    submit: "Zmień hasło",
    changed: "Hasło zostało zmienione.",
    noPassword:
      "Logujesz się przez połączone konto i nie masz jeszcze hasła. Aby je ustawić, wyślemy Ci link e-mailem.",
    sendLink: "Wyślij mi link do ustawienia hasła",
    linkSent: ({ email }: { email: string }) =>
      `Sprawdź skrzynkę: wysłaliśmy na adres ${email} link do ustawienia hasła.`,
  },
  linkedAccounts: {
    title: "Metody logowania",
    credential: "E-mail i hasło",
    linkedSince: ({ date }: { date: string }) => `Połączono ${date}`,
    link: ({ provider }: { provider: string }) => `Połącz z ${provider}`,
    unlink: "Odłącz",
    unlinkLabel: ({ provider }: { provider: string }) => `Odłącz ${provider}`,
    confirmTitle: ({ provider }: { provider: string }) => `Odłączyć ${provider}?`,
    confirmDescription: "Nie będzie już można logować się za jego pomocą.",
    unlinked: ({ provider }: { provider: string }) => `Odłączono ${provider}.`,
  },
  sessions: {
    title: "Urządzenia",
    description: "Gdzie jesteś zalogowany.",
    device: ({ browser, os }: { browser: string; os: string }) => `${browser} (${os})`,
    unknownDevice: "Nieznane urządzenie",
    unknownBrowser: "Przeglądarka",
    unknownOs: "nieznany system",
    thisDevice: "To urządzenie",
    lastActive: ({ when }: { when: string }) => `Ostatnia aktywność: ${when}`,
    justNow: "przed chwilą",
    ipAddress: ({ ip }: { ip: string }) => `Adres IP ${ip}`,
    revoke: "Wyloguj",
    revokeLabel: ({ device }: { device: string }) => `Wyloguj urządzenie ${device}`,
    revokeOthers: "Wyloguj ze wszystkich innych urządzeń",
    confirmRevokeOthers: "Wylogować ze wszystkich innych urządzeń?",
    confirmRevokeOthersDescription:
      "We wszystkich innych przeglądarkach i aplikacjach trzeba będzie zalogować się ponownie.",
    othersRevoked: "Wylogowano Cię ze wszystkich innych urządzeń.",
    revoked: "Urządzenie zostało wylogowane.",
    none: "Nie jesteś zalogowany na żadnym innym urządzeniu.",
  },
  deleteAccount: {
    title: "Usuń konto",
    description:
      "Usunięcie konta usuwa profil, metody logowania i członkostwa w organizacjach. Tej operacji nie można cofnąć.",
    open: "Usuń konto…",
    confirmTitle: "Usunąć konto?",
    confirmDescription: "Konto i wszystko, co jest z nim powiązane, zostanie trwale usunięte.",
    passwordHint: "Wpisz hasło, aby potwierdzić.",
    confirm: "Usuń moje konto",
    emailSent: "Sprawdź skrzynkę: wysłaliśmy Ci link. Konto zostanie usunięte, gdy go otworzysz.",
    linkFailed: "Link do usunięcia konta nie zadziałał.",
  },
};
