import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { Alert } from "../../ui/alert.js";
import { Dialog } from "../../ui/dialog.js";
import { Avatar, Loading } from "../../ui/elements.js";
import { Menu, MenuItem } from "../../ui/menu.js";
import { usePart } from "../../ui/parts.js";
import { Root, type StyleProps } from "../../ui/root.js";
import { CreateOrganization } from "../create-organization/CreateOrganization.js";
import {
  type UseOrganizationSwitcherOptions,
  useOrganizationSwitcher,
} from "./use-organization-switcher.js";

export type OrganizationSwitcherPart =
  | "root"
  | "menu-wrapper"
  | "menu-button"
  | "menu"
  | "menu-item"
  | "menu-item-check"
  | "menu-create"
  | "organization-label"
  | "avatar"
  | "avatar-image"
  | "alert";

export interface OrganizationSwitcherProps
  extends UseOrganizationSwitcherOptions,
    StyleProps<OrganizationSwitcherPart> {}

/** A button naming the active organization that opens a menu to switch or create one. */
export function OrganizationSwitcher({
  className,
  classNames,
  ...options
}: OrganizationSwitcherProps) {
  const { organization: text } = useMessages();
  const errorText = useErrorText();
  const state = useOrganizationSwitcher(options);
  const labelPart = usePart("organization-label");
  const noneLabel = state.hidePersonal ? text.switcher.none : text.switcher.personal;

  return (
    <Root
      component="organization-switcher"
      variant="inline"
      state={state.isLoading ? "loading" : state.pending ? "pending" : undefined}
      className={className}
      classNames={classNames}
    >
      {state.isLoading ? (
        <Loading />
      ) : (
        <Menu
          trigger={
            state.active ? (
              <OrganizationLabel name={state.active.name} logo={state.active.logo} />
            ) : (
              <span {...labelPart}>{noneLabel}</span>
            )
          }
          label={text.switcher.label({ current: state.active?.name ?? noneLabel })}
          menuLabel={text.switcher.menuLabel}
          openFocus="checked"
          pending={state.pending}
        >
          {state.hidePersonal ? null : (
            <MenuItem
              part="menu-item"
              checkMark
              checked={state.activeId === null}
              onSelect={() => void state.select(null)}
            >
              <OrganizationLabel name={text.switcher.personal} />
            </MenuItem>
          )}
          {state.organizations.map((organization) => (
            <MenuItem
              key={organization.id}
              part="menu-item"
              checkMark
              checked={organization.id === state.activeId}
              onSelect={() => void state.select(organization.id)}
            >
              <OrganizationLabel name={organization.name} logo={organization.logo} />
            </MenuItem>
          ))}
          <MenuItem part="menu-create" onSelect={state.create}>
            {text.switcher.create}
          </MenuItem>
        </Menu>
      )}
      <Alert>{state.error ? errorText(state.error) : null}</Alert>
      {state.createDialogOpen ? (
        <Dialog title={text.create.title} onClose={state.closeCreateDialog}>
          <CreateOrganization
            variant="inline"
            hideHeader
            onSuccess={() => void state.onCreated()}
            onCancel={state.closeCreateDialog}
          />
        </Dialog>
      ) : null}
    </Root>
  );
}

function OrganizationLabel({ name, logo }: { name: string; logo?: string | null }) {
  const part = usePart("organization-label");
  return (
    <>
      <Avatar name={name} image={logo} size="sm" />
      <span {...part}>{name}</span>
    </>
  );
}
