import { useRef } from "react";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { Alert } from "../../ui/alert.js";
import { Button, Footer, Form, Header, Text, Title } from "../../ui/elements.js";
import { TextField } from "../../ui/fields.js";
import { useFocusOnChange } from "../../ui/focus.js";
import { usePart } from "../../ui/parts.js";
import { Root, type StyleProps } from "../../ui/root.js";
import {
  type SlugStatus,
  type UseCreateOrganizationOptions,
  useCreateOrganization,
} from "./use-create-organization.js";

export type CreateOrganizationPart =
  | "root"
  | "header"
  | "title"
  | "text"
  | "form"
  | "field"
  | "input"
  | "hint"
  | "slug-status"
  | "button"
  | "alert"
  | "footer";

export interface CreateOrganizationProps
  extends UseCreateOrganizationOptions,
    StyleProps<CreateOrganizationPart> {
  /** Shows a Cancel button that calls this (e.g. to close a dialog). */
  onCancel?: () => void;
  /** Leave out the title, e.g. inside a dialog that has its own. */
  hideHeader?: boolean;
  /** "card" (default) or "inline" inside another frame. */
  variant?: "card" | "inline";
}

/** A form to create an organization: name, slug (checked while typing) and an optional logo. */
export function CreateOrganization({
  onCancel,
  hideHeader,
  variant = "card",
  className,
  classNames,
  ...options
}: CreateOrganizationProps) {
  const { common, organization: text } = useMessages();
  const errorText = useErrorText();
  const state = useCreateOrganization(options);
  const form = useRef<HTMLFormElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  const hasFieldErrors = Object.keys(state.fieldErrors).length > 0;
  useFocusOnChange(state.error ?? (hasFieldErrors ? state.fieldErrors : null), form, alert);

  return (
    <Root
      component="create-organization"
      variant={variant}
      state={state.pending ? "pending" : state.error ? "error" : undefined}
      className={className}
      classNames={classNames}
    >
      {hideHeader ? null : (
        <Header>
          <Title>{text.create.title}</Title>
          <Text>{text.create.description}</Text>
        </Header>
      )}
      <Form
        ref={form}
        onSubmit={(event) => void state.submit(event)}
        aria-label={text.create.title}
      >
        <TextField
          label={text.fields.name}
          name="name"
          autoComplete="organization"
          required
          value={state.name}
          onChange={(event) => state.setName(event.target.value)}
          error={state.fieldErrors.name}
        />
        <TextField
          label={text.fields.slug}
          name="slug"
          autoComplete="off"
          spellCheck={false}
          required
          value={state.slug}
          onChange={(event) => state.setSlug(event.target.value)}
          error={state.fieldErrors.slug}
          hint={<SlugHint status={state.slugStatus} />}
        />
        <TextField
          label={text.fields.logo}
          name="logo"
          type="url"
          inputMode="url"
          value={state.logo}
          onChange={(event) => state.setLogo(event.target.value)}
          error={state.fieldErrors.logo}
          hint={text.fields.logoHint}
        />
        <Alert ref={alert}>{state.error && !hasFieldErrors ? errorText(state.error) : null}</Alert>
        <Footer>
          {onCancel ? (
            <Button variant="secondary" onClick={onCancel}>
              {common.cancel}
            </Button>
          ) : null}
          <Button type="submit" pending={state.pending}>
            {text.create.submit}
          </Button>
        </Footer>
      </Form>
    </Root>
  );
}

/** The slug check's answer, read out politely as it changes. */
function SlugHint({ status }: { status: SlugStatus }) {
  const { organization: text } = useMessages();
  const part = usePart("slug-status");
  const message =
    status === "checking"
      ? text.create.slugChecking
      : status === "available"
        ? text.create.slugAvailable
        : status === "invalid"
          ? text.create.slugInvalid
          : status === "taken"
            ? text.create.slugTaken
            : text.create.slugHint;
  return (
    <span aria-live="polite" data-state={status} {...part}>
      {message}
    </span>
  );
}
