/**
 * The pages authd serves itself: the kit's screens under one <AuthProvider>, routed on
 * the History API, with the settings the server wrote into <html>.
 */
import { StrictMode, useEffect, useMemo } from "react";
import { createRoot } from "react-dom/client";
import {
  type AuthPaths,
  AuthProvider,
  createAuthClient,
  DEFAULT_PATHS,
  useAuthContext,
} from "../src/index.js";
import "../src/theme/styles.css";
import "./pages.css";
import { Page } from "./pages.js";
import { useRouter } from "./router.js";
import { type PageSettings, readSettings } from "./settings.js";

/** The kit's paths, under the pages' own path. */
function pathsUnder(prefix: string): AuthPaths {
  const paths = { ...DEFAULT_PATHS };
  for (const key of Object.keys(paths) as Array<keyof AuthPaths>) {
    paths[key] = paths[key] === "/" ? prefix || "/" : `${prefix}${paths[key]}`;
  }
  return paths;
}

/** <html lang> follows the language the kit chose. */
function DocumentLanguage() {
  const { locale } = useAuthContext();
  useEffect(() => {
    document.documentElement.lang = locale === "pseudo" ? "en" : locale;
  }, [locale]);
  return null;
}

function App({ settings }: { settings: PageSettings }) {
  const router = useRouter(settings.pagesPrefix);
  const client = useMemo(
    () => createAuthClient({ baseURL: window.location.origin, basePath: settings.apiBasePath }),
    [settings.apiBasePath],
  );
  const paths = useMemo(() => pathsUnder(settings.pagesPrefix), [settings.pagesPrefix]);
  return (
    <AuthProvider client={client} navigate={router.navigate} paths={paths} appearance="system">
      <DocumentLanguage />
      <Page
        key={`${router.place.pathname}${router.place.search}`}
        route={router.route}
        settings={settings}
        replace={router.replace}
      />
    </AuthProvider>
  );
}

const container = document.getElementById("root");
if (container) {
  createRoot(container).render(
    <StrictMode>
      <App settings={readSettings(document.documentElement)} />
    </StrictMode>,
  );
}
