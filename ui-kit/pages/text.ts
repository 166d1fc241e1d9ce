/**
 * The few words the pages say themselves (the kit's screens bring their own), in the
 * kit's eight languages.
 */
import type { LocaleCode } from "../src/index.js";

export interface PageText {
  home: string;
  notFoundTitle: string;
  notFoundText: string;
  backHome: string;
  accountDeleted: string;
  loading: string;
}

const TEXT: Record<LocaleCode, PageText> = {
  en: {
    home: "Your account",
    notFoundTitle: "Page not found",
    notFoundText: "There is no page at this address.",
    backHome: "Go to the start page",
    accountDeleted: "Your account has been deleted.",
    loading: "Loading…",
  },
  ru: {
    home: "Ваш аккаунт",
    notFoundTitle: "Страница не найдена",
    notFoundText: "По этому адресу нет страницы.",
    backHome: "На главную",
    accountDeleted: "Ваш аккаунт удалён.",
    loading: "Загрузка…",
  },
  uk: {
    home: "Ваш обліковий запис",
    notFoundTitle: "Сторінку не знайдено",
    notFoundText: "За цією адресою немає сторінки.",
    backHome: "На головну",
    accountDeleted: "Ваш обліковий запис видалено.",
    loading: "Завантаження…",
  },
  es: {
    home: "Tu cuenta",
    notFoundTitle: "Página no encontrada",
    notFoundText: "No hay ninguna página en esta dirección.",
    backHome: "Ir a la página de inicio",
    accountDeleted: "Tu cuenta se ha eliminado.",
    loading: "Cargando…",
  },
  de: {
    home: "Dein Konto",
    notFoundTitle: "Seite nicht gefunden",
    notFoundText: "Unter dieser Adresse gibt es keine Seite.",
    backHome: "Zur Startseite",
    accountDeleted: "Dein Konto wurde gelöscht.",
    loading: "Wird geladen…",
  },
  pl: {
    home: "Twoje konto",
    notFoundTitle: "Nie znaleziono strony",
    notFoundText: "Pod tym adresem nie ma strony.",
    backHome: "Przejdź do strony startowej",
    accountDeleted: "Twoje konto zostało usunięte.",
    loading: "Ładowanie…",
  },
  fr: {
    home: "Votre compte",
    notFoundTitle: "Page introuvable",
    notFoundText: "Il n’y a aucune page à cette adresse.",
    backHome: "Aller à la page d’accueil",
    accountDeleted: "Votre compte a été supprimé.",
    loading: "Chargement…",
  },
  tr: {
    home: "Hesabınız",
    notFoundTitle: "Sayfa bulunamadı",
    notFoundText: "Bu adreste bir sayfa yok.",
    backHome: "Başlangıç sayfasına git",
    accountDeleted: "Hesabınız silindi.",
    loading: "Yükleniyor…",
  },
};

export function pageText(locale: LocaleCode | "pseudo"): PageText {
  return locale === "pseudo" ? TEXT.en : TEXT[locale];
}
