/**
 * A tiny router on the History API: which page an address names, and navigation that
 * stays in the app for its own pages and loads anything else.
 */
import { useCallback, useEffect, useState } from "react";
import { sameSitePath } from "../src/ui/urls.js";

export type Route =
  | { name: "home" }
  | { name: "sign-in" }
  | { name: "sign-up" }
  | { name: "forgot-password" }
  | { name: "reset-password" }
  | { name: "verify-email" }
  | { name: "accept-invitation"; invitationId: string }
  | { name: "account" }
  | { name: "organization" }
  | { name: "create-organization" }
  | { name: "not-found" };

const FIXED: Record<string, Route> = {
  "": { name: "home" },
  "/": { name: "home" },
  "/sign-in": { name: "sign-in" },
  "/sign-up": { name: "sign-up" },
  "/forgot-password": { name: "forgot-password" },
  "/reset-password": { name: "reset-password" },
  "/verify-email": { name: "verify-email" },
  "/account": { name: "account" },
  "/organization": { name: "organization" },
  "/organization/new": { name: "create-organization" },
};

/** The route of `pathname`, or null when it lies outside the pages. */
export function matchRoute(pathname: string, prefix: string): Route | null {
  if (prefix && pathname !== prefix && !pathname.startsWith(`${prefix}/`)) return null;
  const rest = pathname.slice(prefix.length);
  const fixed = FIXED[rest];
  if (fixed) return fixed;
  const invitation = /^\/accept-invitation\/([^/]+)$/.exec(rest);
  if (invitation?.[1]) {
    return { name: "accept-invitation", invitationId: decodeURIComponent(invitation[1]) };
  }
  return { name: "not-found" };
}

export interface Place {
  pathname: string;
  search: string;
}

function currentPlace(): Place {
  return { pathname: window.location.pathname, search: window.location.search };
}

export interface Router {
  place: Place;
  route: Route;
  /** Goes to `href`: in the app when it is one of its pages, else a page load. */
  navigate: (href: string) => void;
  /** The same, replacing the current history entry (redirects). */
  replace: (href: string) => void;
}

export function useRouter(prefix: string): Router {
  const [place, setPlace] = useState(currentPlace);

  useEffect(() => {
    const onPopState = () => setPlace(currentPlace());
    window.addEventListener("popstate", onPopState);
    return () => window.removeEventListener("popstate", onPopState);
  }, []);

  const go = useCallback(
    (href: string, mode: "push" | "replace") => {
      const target = new URL(href, window.location.href);
      const inApp =
        target.origin === window.location.origin && matchRoute(target.pathname, prefix) !== null;
      if (!inApp) {
        if (mode === "replace") window.location.replace(target.href);
        else window.location.assign(target.href);
        return;
      }
      const url = `${target.pathname}${target.search}${target.hash}`;
      if (mode === "replace") window.history.replaceState(null, "", url);
      else window.history.pushState(null, "", url);
      setPlace(currentPlace());
      window.scrollTo(0, 0);
    },
    [prefix],
  );
  const navigate = useCallback((href: string) => go(href, "push"), [go]);
  const replace = useCallback((href: string) => go(href, "replace"), [go]);

  const route = matchRoute(place.pathname, prefix) ?? { name: "not-found" };
  return { place, route, navigate, replace };
}

/** A `?redirectTo=` worth following: a path of this site, never another origin. */
export function safeRedirect(value: string | null | undefined): string | undefined {
  return sameSitePath(value);
}
