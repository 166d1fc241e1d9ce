import { useRef } from "react";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { Alert } from "../../ui/alert.js";
import { ConfirmDialog } from "../../ui/confirm-dialog.js";
import { Dialog } from "../../ui/dialog.js";
import { Avatar, Button, Footer, Form, Header, Text, Title } from "../../ui/elements.js";
import { TextField } from "../../ui/fields.js";
import { useFocusOnChange } from "../../ui/focus.js";
import { usePart } from "../../ui/parts.js";
import { Root, type StyleProps } from "../../ui/root.js";
import { OrganizationGate } from "./OrganizationGate.js";
import {
  type UseOrganizationDetailsOptions,
  useOrganizationDetails,
} from "./use-organization-details.js";

export type OrganizationDetailsPart =
  | "root"
  | "header"
  | "title"
  | "text"
  | "form"
  | "field"
  | "input"
  | "button"
  | "alert"
  | "footer"
  | "avatar"
  | "danger-zone"
  | "dialog"
  | "empty";

export interface OrganizationDetailsProps
  extends UseOrganizationDetailsOptions,
    StyleProps<OrganizationDetailsPart> {
  /** "card" (default), or "inline" inside <OrganizationSettings/> (its heading a level lower). */
  variant?: "card" | "inline";
}

/** The organization's name, slug and logo, with deleting (owners) and leaving it. */
export function OrganizationDetails({
  variant = "card",
  className,
  classNames,
  ...options
}: OrganizationDetailsProps) {
  const { common, organization: text } = useMessages();
  const errorText = useErrorText();
  const state = useOrganizationDetails(options);
  const form = useRef<HTMLFormElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  const dangerPart = usePart("danger-zone");
  const hasFieldErrors = Object.keys(state.fieldErrors).length > 0;
  useFocusOnChange(
    state.deleteOpen ? null : (state.error ?? (hasFieldErrors ? state.fieldErrors : null)),
    form,
    alert,
  );
  const organization = state.scope.organization.data;
  const readOnly = !state.canEdit;

  return (
    <Root
      component="organization-details"
      variant={variant}
      state={state.savePending ? "pending" : state.error ? "error" : undefined}
      className={className}
      classNames={classNames}
    >
      <Header>
        <Title level={variant === "inline" ? 3 : 2}>{text.details.title}</Title>
      </Header>
      <OrganizationGate scope={state.scope}>
        {organization ? (
          <Avatar name={organization.name} image={organization.logo} size="lg" />
        ) : null}
        <Form
          ref={form}
          onSubmit={(event) => void state.save(event)}
          aria-label={text.details.title}
        >
          <TextField
            label={text.fields.name}
            name="name"
            required
            readOnly={readOnly}
            value={state.name}
            onChange={(event) => state.setName(event.target.value)}
            error={state.fieldErrors.name}
          />
          <TextField
            label={text.fields.slug}
            name="slug"
            required
            spellCheck={false}
            readOnly={readOnly}
            value={state.slug}
            onChange={(event) => state.setSlug(event.target.value)}
            error={state.fieldErrors.slug}
          />
          <TextField
            label={text.fields.logo}
            name="logo"
            type="url"
            readOnly={readOnly}
            value={state.logo}
            onChange={(event) => state.setLogo(event.target.value)}
            error={state.fieldErrors.logo}
            hint={readOnly ? undefined : text.fields.logoHint}
          />
          <Alert ref={alert} tone={state.saved ? "success" : "error"}>
            {state.saved
              ? text.details.saved
              : state.error && !hasFieldErrors && !state.deleteOpen
                ? errorText(state.error)
                : null}
          </Alert>
          {state.canEdit ? (
            <Button type="submit" pending={state.savePending}>
              {common.save}
            </Button>
          ) : (
            <Text>{text.details.readOnly}</Text>
          )}
        </Form>
        {state.canDelete || state.canLeave ? (
          <div {...dangerPart}>
            {state.canLeave ? (
              <Button variant="secondary" onClick={state.openLeave} pending={state.leavePending}>
                {text.details.leave}
              </Button>
            ) : null}
            {state.canDelete ? (
              <Button variant="danger" onClick={state.openDelete}>
                {text.details.delete}
              </Button>
            ) : null}
          </div>
        ) : null}
        {state.deleteOpen && organization ? (
          <Dialog
            title={text.details.deleteTitle}
            description={text.details.deleteDescription({ name: organization.name })}
            onClose={state.closeDelete}
          >
            <Form
              onSubmit={(event) => {
                event.preventDefault();
                void state.deleteOrganization();
              }}
              aria-label={text.details.deleteTitle}
            >
              <TextField
                label={text.details.deleteConfirmLabel({ name: organization.name })}
                name="confirm"
                autoComplete="off"
                value={state.deleteConfirmation}
                onChange={(event) => state.setDeleteConfirmation(event.target.value)}
              />
              <Alert>{state.error ? errorText(state.error) : null}</Alert>
              <Footer>
                <Button variant="secondary" onClick={state.closeDelete}>
                  {common.cancel}
                </Button>
                <Button
                  type="submit"
                  variant="danger"
                  disabled={!state.deleteConfirmed}
                  pending={state.deletePending}
                >
                  {text.details.deleteConfirm}
                </Button>
              </Footer>
            </Form>
          </Dialog>
        ) : null}
        {state.leaveOpen && organization ? (
          <ConfirmDialog
            title={text.details.leaveTitle}
            description={text.details.leaveDescription({ name: organization.name })}
            confirmLabel={text.details.leaveConfirm}
            onCancel={state.closeLeave}
            onConfirm={state.leave}
            pending={state.leavePending}
          />
        ) : null}
      </OrganizationGate>
    </Root>
  );
}
