/**
 * The organization's details without markup: editing name, slug and logo, deleting it
 * (owners, after typing its name) and leaving it (everyone but its only owner).
 */
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { AuthError } from "../../client/request.js";
import { QUERY_KEYS } from "../../hooks/organization.js";
import { useAction } from "../../hooks/use-action.js";
import { useMessages } from "../../hooks/use-messages.js";
import { type FieldErrors, fieldsOfValidationError, hasErrors } from "../../ui/form-errors.js";
import {
  cleanSlugInput,
  isSlugTakenError,
  isValidSlug,
  looksLikeURL,
} from "../create-organization/use-create-organization.js";
import { canManage, hasRole } from "./roles.js";
import {
  ORGANIZATION_CHANGES,
  type OrganizationScope,
  type UseOrganizationScopeOptions,
  useOrganizationScope,
} from "./use-organization-scope.js";

export type OrganizationDetailsField = "name" | "slug" | "logo";

export interface UseOrganizationDetailsOptions extends UseOrganizationScopeOptions {
  /** Where to go after deleting or leaving the organization; by default the page stays. */
  redirectTo?: string;
  onDeleted?: () => void;
  onLeft?: () => void;
}

export interface UseOrganizationDetailsResult {
  scope: OrganizationScope;
  name: string;
  setName: (value: string) => void;
  slug: string;
  setSlug: (value: string) => void;
  logo: string;
  setLogo: (value: string) => void;
  fieldErrors: FieldErrors<OrganizationDetailsField>;
  /** The last save, delete or leave error. */
  error: AuthError | null;
  /** True once the last save succeeded (until the next edit). */
  saved: boolean;
  canEdit: boolean;
  canDelete: boolean;
  canLeave: boolean;
  savePending: boolean;
  save: (event?: FormEvent) => Promise<void>;
  /** The delete confirmation: open, what was typed, and whether it matches the name. */
  deleteOpen: boolean;
  openDelete: () => void;
  closeDelete: () => void;
  deleteConfirmation: string;
  setDeleteConfirmation: (value: string) => void;
  deleteConfirmed: boolean;
  deletePending: boolean;
  deleteOrganization: () => Promise<void>;
  leaveOpen: boolean;
  openLeave: () => void;
  closeLeave: () => void;
  leavePending: boolean;
  leave: () => Promise<void>;
}

export function useOrganizationDetails(
  options: UseOrganizationDetailsOptions = {},
): UseOrganizationDetailsResult {
  const { client, navigate } = useAuthContext();
  const { common, organization: text } = useMessages();
  const scope = useOrganizationScope(options);
  const organization = scope.organization.data ?? null;
  const organizationId = scope.organizationId ?? "";
  const [name, setNameValue] = useState("");
  const [slug, setSlugValue] = useState("");
  const [logo, setLogoValue] = useState("");
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<OrganizationDetailsField>>({});
  const [saved, setSaved] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [deleteConfirmation, setDeleteConfirmation] = useState("");
  const [leaveOpen, setLeaveOpen] = useState(false);
  const { redirectTo, onDeleted, onLeft } = options;

  // The form starts from what the server holds, again when another organization is shown.
  const loadedId = organization?.id;
  const loadedName = organization?.name;
  const loadedSlug = organization?.slug;
  const loadedLogo = organization?.logo;
  useEffect(() => {
    if (loadedId === undefined) return;
    setNameValue(loadedName ?? "");
    setSlugValue(loadedSlug ?? "");
    setLogoValue(loadedLogo ?? "");
    setFieldErrors({});
  }, [loadedId, loadedName, loadedSlug, loadedLogo]);

  const update = useAction(
    (data: { name: string; slug: string; logo?: string | null }) =>
      client.organization.update({ data, organizationId }),
    { invalidates: [...ORGANIZATION_CHANGES, QUERY_KEYS.organizations] },
  );
  const remove = useAction(() => client.organization.delete({ organizationId }), {
    invalidates: [...ORGANIZATION_CHANGES, QUERY_KEYS.organizations, QUERY_KEYS.teams],
  });
  const leaveAction = useAction(() => client.organization.leave({ organizationId }), {
    invalidates: [...ORGANIZATION_CHANGES, QUERY_KEYS.organizations, QUERY_KEYS.teams],
  });

  const edited = (apply: () => void) => {
    apply();
    setSaved(false);
  };

  const save = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      const found: FieldErrors<OrganizationDetailsField> = {};
      if (!name.trim()) found.name = common.required;
      if (!slug) found.slug = common.required;
      else if (!isValidSlug(slug)) found.slug = text.create.slugInvalid;
      if (logo.trim() && !looksLikeURL(logo.trim())) found.logo = text.create.logoInvalid;
      setFieldErrors(found);
      setSaved(false);
      update.reset();
      if (hasErrors(found)) return;
      const result = await update.run({
        name: name.trim(),
        slug,
        // An emptied logo removes the organization's logo.
        ...(logo.trim() ? { logo: logo.trim() } : loadedLogo ? { logo: null } : {}),
      });
      if (result.error) {
        setFieldErrors(
          isSlugTakenError(result.error)
            ? { slug: text.create.slugTaken }
            : fieldsOfValidationError(result.error, ["name", "slug", "logo"], common.invalidField),
        );
        return;
      }
      setSaved(true);
    },
    [common, text, name, slug, logo, loadedLogo, update.run, update.reset],
  );

  const owners =
    organization?.members.filter((member) => hasRole(member.role, "owner")).length ?? 0;
  const isOwner = hasRole(scope.myRole, "owner");

  const deleteConfirmed = Boolean(organization) && deleteConfirmation.trim() === organization?.name;
  const deleteOrganization = useCallback(async () => {
    if (!deleteConfirmed) return;
    const result = await remove.run();
    if (result.error) return;
    setDeleteOpen(false);
    await client.session.refetch();
    onDeleted?.();
    if (redirectTo) navigate(redirectTo);
  }, [deleteConfirmed, remove.run, client, onDeleted, redirectTo, navigate]);

  const leave = useCallback(async () => {
    const result = await leaveAction.run();
    if (result.error) {
      setLeaveOpen(false);
      return;
    }
    setLeaveOpen(false);
    await client.session.refetch();
    onLeft?.();
    if (redirectTo) navigate(redirectTo);
  }, [leaveAction.run, client, onLeft, redirectTo, navigate]);

  return {
    scope,
    name,
    setName: (value) => edited(() => setNameValue(value)),
    slug,
    setSlug: (value) => edited(() => setSlugValue(cleanSlugInput(value))),
    logo,
    setLogo: (value) => edited(() => setLogoValue(value)),
    fieldErrors,
    error: update.error ?? remove.error ?? leaveAction.error,
    saved,
    canEdit: canManage(scope.myRole),
    canDelete: isOwner,
    // The only owner cannot leave; the server says so too if the list was out of date.
    canLeave: Boolean(scope.me) && (!isOwner || owners > 1),
    savePending: update.isPending,
    save,
    deleteOpen,
    openDelete: () => {
      remove.reset();
      setDeleteConfirmation("");
      setDeleteOpen(true);
    },
    closeDelete: () => setDeleteOpen(false),
    deleteConfirmation,
    setDeleteConfirmation,
    deleteConfirmed,
    deletePending: remove.isPending,
    deleteOrganization,
    leaveOpen,
    openLeave: () => {
      leaveAction.reset();
      setLeaveOpen(true);
    },
    closeLeave: () => setLeaveOpen(false),
    leavePending: leaveAction.isPending,
    leave,
  };
}
