/**
 * Creating an organization without markup: name, a slug that follows the name until the
 * user edits it, a live check that the slug is free, and what happens once created.
 */
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { AuthError, Result } from "../../client/request.js";
import type { Organization } from "../../client/types.js";
import { QUERY_KEYS } from "../../hooks/organization.js";
import { useAction } from "../../hooks/use-action.js";
import { useMessages } from "../../hooks/use-messages.js";
import { type FieldErrors, fieldsOfValidationError, hasErrors } from "../../ui/form-errors.js";

export type CreateOrganizationField = "name" | "slug" | "logo";

/** idle: nothing to check; checking: waiting for the answer; invalid: not a slug the server takes. */
export type SlugStatus = "idle" | "invalid" | "checking" | "available" | "taken";

export interface UseCreateOrganizationOptions {
  /** Where to go once created; default the provider's `paths.organization`. Not used with `onSuccess`. */
  redirectTo?: string;
  /** Called with the new organization instead of navigating. */
  onSuccess?: (organization: Organization) => void;
  /** Keep the session's current active organization instead of switching to the new one. */
  keepCurrentActiveOrganization?: boolean;
  /** How long to wait after the last keystroke before checking the slug, in ms. Default 300. */
  slugCheckDelay?: number;
}

export interface UseCreateOrganizationResult {
  name: string;
  setName: (value: string) => void;
  slug: string;
  setSlug: (value: string) => void;
  logo: string;
  setLogo: (value: string) => void;
  slugStatus: SlugStatus;
  fieldErrors: FieldErrors<CreateOrganizationField>;
  error: AuthError | null;
  pending: boolean;
  submit: (event?: FormEvent) => Promise<void>;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SLUG_MAX = 100;
const NAME_MAX = 255;
const TAKEN_CODES = new Set([
  "SLUG_IS_TAKEN",
  "ORGANIZATION_SLUG_ALREADY_TAKEN",
  "ORGANIZATION_ALREADY_EXISTS",
]);

export function isValidSlug(slug: string): boolean {
  return slug.length <= SLUG_MAX && SLUG.test(slug);
}

/** A slug from a name: accents dropped, lowercase letters and digits joined by single hyphens. */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX)
    .replace(/-+$/, "");
}

/** What the user types into the slug field, kept to what a slug may hold. */
export function cleanSlugInput(value: string): string {
  return value
    .toLowerCase()
    .replace(/[\s_]+/g, "-")
    .replace(/[^a-z0-9-]/g, "")
    .replace(/-{2,}/g, "-")
    .slice(0, SLUG_MAX);
}

export function isSlugTakenError(error: AuthError | null | undefined): boolean {
  return Boolean(error && TAKEN_CODES.has(error.code));
}

/** An http(s) link, as a logo must be. */
export function looksLikeURL(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

export function useCreateOrganization(
  options: UseCreateOrganizationOptions = {},
): UseCreateOrganizationResult {
  const { client, navigate, paths } = useAuthContext();
  const { common, organization: text } = useMessages();
  const [name, setNameValue] = useState("");
  const [slug, setSlugValue] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  const [logo, setLogo] = useState("");
  const [slugStatus, setSlugStatus] = useState<SlugStatus>("idle");
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<CreateOrganizationField>>({});
  const latestCheck = useRef(0);
  const { onSuccess, keepCurrentActiveOrganization = false, slugCheckDelay = 300 } = options;
  const redirectTo = options.redirectTo ?? paths.organization;

  const create = useAction(
    async (input: { name: string; slug: string; logo?: string }): Promise<Result<Organization>> => {
      const created = await client.organization.create({
        ...input,
        keepCurrentActiveOrganization,
      });
      if (created.error || keepCurrentActiveOrganization) return created;
      const switched = await client.organization.setActive({ organizationId: created.data.id });
      return switched.error ? { data: null, error: switched.error } : created;
    },
    {
      invalidates: [QUERY_KEYS.organizations, QUERY_KEYS.fullOrganization, QUERY_KEYS.activeMember],
    },
  );

  const setName = useCallback(
    (value: string) => {
      setNameValue(value);
      if (!slugEdited) setSlugValue(slugify(value));
    },
    [slugEdited],
  );

  const setSlug = useCallback((value: string) => {
    setSlugEdited(true);
    setSlugValue(cleanSlugInput(value));
  }, []);

  // Checks the slug once typing pauses; an older answer arriving late is ignored.
  useEffect(() => {
    const check = ++latestCheck.current;
    if (!slug) {
      setSlugStatus("idle");
      return;
    }
    if (!isValidSlug(slug)) {
      setSlugStatus("invalid");
      return;
    }
    setSlugStatus("checking");
    const timer = setTimeout(() => {
      void client.organization.checkSlug({ slug }).then((result) => {
        if (check !== latestCheck.current) return;
        if (!result.error) setSlugStatus(result.data.status ? "available" : "taken");
        else setSlugStatus(isSlugTakenError(result.error) ? "taken" : "idle");
      });
    }, slugCheckDelay);
    return () => clearTimeout(timer);
  }, [client, slug, slugCheckDelay]);

  const submit = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      const found: FieldErrors<CreateOrganizationField> = {};
      const trimmedName = name.trim();
      const trimmedLogo = logo.trim();
      if (!trimmedName) found.name = common.required;
      else if (trimmedName.length > NAME_MAX)
        found.name = text.create.nameTooLong({ max: NAME_MAX });
      if (!slug) found.slug = common.required;
      else if (!isValidSlug(slug)) found.slug = text.create.slugInvalid;
      else if (slugStatus === "taken") found.slug = text.create.slugTaken;
      if (trimmedLogo && !looksLikeURL(trimmedLogo)) found.logo = text.create.logoInvalid;
      setFieldErrors(found);
      create.reset();
      if (hasErrors(found)) return;
      const result = await create.run({
        name: trimmedName,
        slug,
        ...(trimmedLogo ? { logo: trimmedLogo } : {}),
      });
      if (result.error) {
        if (isSlugTakenError(result.error)) {
          setSlugStatus("taken");
          setFieldErrors({ slug: text.create.slugTaken });
        } else {
          setFieldErrors(
            fieldsOfValidationError(result.error, ["name", "slug", "logo"], common.invalidField),
          );
        }
        return;
      }
      await client.session.refetch();
      if (onSuccess) onSuccess(result.data);
      else navigate(redirectTo);
    },
    [
      client,
      common,
      text,
      name,
      slug,
      logo,
      slugStatus,
      create.run,
      create.reset,
      onSuccess,
      navigate,
      redirectTo,
    ],
  );

  return {
    name,
    setName,
    slug,
    setSlug,
    logo,
    setLogo,
    slugStatus,
    fieldErrors,
    error: create.error,
    pending: create.isPending,
    submit,
  };
}
