import { useAuthContext } from "../../auth-context.js";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { Alert } from "../../ui/alert.js";
import { Avatar } from "../../ui/elements.js";
import { Menu, MenuGroup, MenuItem, MenuLabel, MenuLink, MenuSeparator } from "../../ui/menu.js";
import { usePart } from "../../ui/parts.js";
import { Root, type StyleProps } from "../../ui/root.js";
import { type UseUserButtonOptions, useUserButton } from "./use-user-button.js";

export type UserButtonPart =
  | "root"
  | "avatar"
  | "menu-button"
  | "menu"
  | "menu-item"
  | "menu-item-radio"
  | "menu-label"
  | "menu-group"
  | "menu-separator"
  | "user-name"
  | "user-email"
  | "alert";

export interface UserButtonProps extends UseUserButtonOptions, StyleProps<UserButtonPart> {
  /** Signed out, show a link to sign in instead of nothing. */
  showSignInWhenSignedOut?: boolean;
}

/** The signed-in user's avatar, opening a menu: account, organizations, sign out. */
export function UserButton({
  showSignInWhenSignedOut,
  className,
  classNames,
  ...options
}: UserButtonProps) {
  const { Link, paths } = useAuthContext();
  const { account } = useMessages();
  const errorText = useErrorText();
  const state = useUserButton(options);
  const namePart = usePart("user-name");
  const emailPart = usePart("user-email");
  const placeholder = usePart("avatar");
  const strings = account.userButton;
  const showOrganizations = options.showOrganizations ?? true;

  if (state.status === "signed-out" && !showSignInWhenSignedOut) return null;
  return (
    <Root
      component="user-button"
      variant="inline"
      state={state.status}
      className={className}
      classNames={classNames}
    >
      {state.status === "loading" ? (
        <span
          role="img"
          aria-label={strings.loading}
          aria-busy="true"
          data-state="loading"
          {...placeholder}
        />
      ) : null}
      {state.status === "signed-out" ? <Link href={paths.signIn}>{strings.signIn}</Link> : null}
      {state.user ? (
        <>
          <Menu
            label={state.user.name || state.user.email}
            menuLabel={strings.openMenu({ name: state.user.name || state.user.email })}
            trigger={<Avatar name={state.user.name} image={state.user.image} size="sm" />}
          >
            <MenuLabel>
              <span {...namePart}>{state.user.name}</span>
              <span {...emailPart}>{state.user.email}</span>
            </MenuLabel>
            <MenuSeparator />
            <MenuLink href={paths.account}>{strings.account}</MenuLink>
            {showOrganizations ? (
              <>
                <MenuSeparator />
                <MenuGroup label={strings.organizations}>
                  <MenuItem
                    variant="default"
                    checked={state.activeOrganizationId === null}
                    pending={state.switching === ""}
                    onSelect={() =>
                      state.activeOrganizationId === null
                        ? undefined
                        : void state.switchOrganization(null)
                    }
                  >
                    {strings.personal}
                  </MenuItem>
                  {state.organizations.map((organization) => (
                    <MenuItem
                      key={organization.id}
                      variant="default"
                      checked={state.activeOrganizationId === organization.id}
                      pending={state.switching === organization.id}
                      onSelect={() =>
                        state.activeOrganizationId === organization.id
                          ? undefined
                          : void state.switchOrganization(organization.id)
                      }
                    >
                      {organization.name}
                    </MenuItem>
                  ))}
                </MenuGroup>
                <MenuLink href={paths.createOrganization}>{strings.createOrganization}</MenuLink>
              </>
            ) : null}
            <MenuSeparator />
            <MenuItem
              variant="danger"
              pending={state.signingOut}
              onSelect={() => void state.signOut()}
            >
              {strings.signOut}
            </MenuItem>
          </Menu>
          {state.error ? <Alert>{errorText(state.error)}</Alert> : null}
        </>
      ) : null}
    </Root>
  );
}
