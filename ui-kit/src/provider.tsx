/**
 * <AuthProvider>: wraps the app once. It holds the answer cache, loads the language,
 * and shows the re-authentication dialog when an action needs a fresh session.
 */
import {
  type MouseEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import {
  type Appearance,
  AuthContext,
  type AuthContextValue,
  type AuthPaths,
  DEFAULT_PATHS,
  type LinkComponent,
  type LinkProps,
  type ThemeVariables,
} from "./auth-context.js";
import type { AuthClient } from "./client/client.js";
import type { SessionData } from "./client/types.js";
import { StepUpDialog } from "./components/step-up/StepUpDialog.js";
import {
  browserLanguages,
  english,
  type LocaleInput,
  loadMessages,
  negotiateLocale,
  resolveLocale,
} from "./i18n/locale.js";
import type { LocaleCode, Messages } from "./i18n/types.js";
import { createQueryCache } from "./query-cache.js";

export interface AuthProviderProps {
  client: AuthClient;
  children?: ReactNode;
  /**
   * The language: a locale code ("de", "de-AT"), a numeric language id (6) or
   * "pseudo". By default the browser's preference among the shipped languages.
   */
  locale?: LocaleInput;
  /** Strings already loaded (e.g. `import { messages } from "@authd/react/locales/de"`): no wait, no flash. */
  messages?: Messages;
  appearance?: Appearance;
  variables?: ThemeVariables;
  /** Client-side navigation; by default the browser loads the page. */
  navigate?: (href: string) => void;
  /** The app router's link; by default an `<a>` that calls `navigate`. */
  Link?: LinkComponent;
  paths?: Partial<AuthPaths>;
  /** The session known where the page was rendered, so the first paint already shows it. */
  initialSession?: SessionData | null;
}

function browserNavigate(href: string): void {
  const { window } = globalThis as { window?: { location: { assign(url: string): void } } };
  window?.location.assign(href);
}

function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return (
    event.button === 0 &&
    !event.metaKey &&
    !event.ctrlKey &&
    !event.shiftKey &&
    !event.altKey &&
    (!event.currentTarget.target || event.currentTarget.target === "_self")
  );
}

function makeAnchor(navigate: ((href: string) => void) | undefined): LinkComponent {
  return function AuthLink({ href, onClick, ...rest }: LinkProps) {
    return (
      <a
        href={href}
        onClick={(event) => {
          onClick?.(event);
          if (navigate && !event.defaultPrevented && isPlainClick(event)) {
            event.preventDefault();
            navigate(href);
          }
        }}
        {...rest}
      />
    );
  };
}

interface LocaleState {
  locale: LocaleCode | "pseudo";
  messages: Messages;
  ready: boolean;
}

function initialLocale(props: AuthProviderProps): LocaleState {
  if (props.messages) {
    const locale = props.locale === undefined ? "en" : (resolveLocale(props.locale) ?? "en");
    return { locale, messages: props.messages, ready: true };
  }
  const explicit = props.locale === undefined ? null : resolveLocale(props.locale);
  if (explicit === "en" || (props.locale !== undefined && explicit === null)) {
    return { locale: "en", messages: english, ready: true };
  }
  // A language still to load (or to negotiate in the browser after hydration).
  return { locale: explicit ?? "en", messages: english, ready: false };
}

/** The language state: loads the chosen language, or the browser's after hydration. */
function useLocaleState(props: AuthProviderProps): LocaleState {
  const [state, setState] = useState(() => initialLocale(props));
  const { locale: requested, messages: given } = props;

  useEffect(() => {
    if (given) {
      const locale = requested === undefined ? "en" : (resolveLocale(requested) ?? "en");
      setState({ locale, messages: given, ready: true });
      return;
    }
    const target =
      requested === undefined
        ? negotiateLocale(browserLanguages())
        : (resolveLocale(requested) ?? "en");
    let current = true;
    loadMessages(target).then(
      (messages) => {
        if (current) setState({ locale: target, messages, ready: true });
      },
      () => {
        // A chunk that fails to load leaves the screens in English rather than hidden.
        if (current) setState({ locale: "en", messages: english, ready: true });
      },
    );
    return () => {
      current = false;
    };
  }, [requested, given]);

  return state;
}

export function AuthProvider(props: AuthProviderProps) {
  const { client, navigate: navigateProp, Link: LinkProp, paths: pathsProp } = props;
  const [cache] = useState(createQueryCache);
  const { locale, messages, ready } = useLocaleState(props);
  const [stepUp, setStepUp] = useState<{ resolve: (ok: boolean) => void } | null>(null);
  const stepUpRef = useRef(stepUp);
  stepUpRef.current = stepUp;

  const requestStepUp = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        // A second action asking while the dialog is open waits for the same answer.
        const open = stepUpRef.current;
        if (open) {
          const previous = open.resolve;
          open.resolve = (ok) => {
            previous(ok);
            resolve(ok);
          };
          return;
        }
        setStepUp({ resolve });
      }),
    [],
  );

  const navigate = navigateProp ?? browserNavigate;
  const Link = useMemo(() => LinkProp ?? makeAnchor(navigateProp), [LinkProp, navigateProp]);
  const paths = useMemo(() => ({ ...DEFAULT_PATHS, ...pathsProp }), [pathsProp]);

  const value = useMemo<AuthContextValue>(
    () => ({
      client,
      cache,
      messages,
      locale,
      localeReady: ready,
      appearance: props.appearance ?? "system",
      variables: props.variables,
      navigate,
      Link,
      paths,
      initialSession: props.initialSession,
      requestStepUp,
    }),
    [
      client,
      cache,
      messages,
      locale,
      ready,
      props.appearance,
      props.variables,
      navigate,
      Link,
      paths,
      props.initialSession,
      requestStepUp,
    ],
  );

  return (
    <AuthContext.Provider value={value}>
      {props.children}
      {stepUp ? (
        <StepUpDialog
          onDone={(ok) => {
            setStepUp(null);
            stepUp.resolve(ok);
          }}
        />
      ) : null}
    </AuthContext.Provider>
  );
}
