/** What a settings section shows before it has an organization: loading, none active, or an error. */
import type { ReactNode } from "react";
import { useAuthContext } from "../../auth-context.js";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { Alert } from "../../ui/alert.js";
import { Button, Loading, Text } from "../../ui/elements.js";
import { usePart } from "../../ui/parts.js";
import type { OrganizationScope } from "./use-organization-scope.js";

export function OrganizationGate({
  scope,
  children,
}: {
  scope: OrganizationScope;
  children: ReactNode;
}) {
  const { Link, paths } = useAuthContext();
  const { common, organization: text } = useMessages();
  const errorText = useErrorText();
  const emptyPart = usePart("empty");
  if (scope.isPending) return <Loading />;
  const { data, error, refetch } = scope.organization;
  if (error && !data) {
    return (
      <>
        <Alert>{errorText(error)}</Alert>
        <Button variant="secondary" onClick={() => void refetch()}>
          {common.retry}
        </Button>
      </>
    );
  }
  if (!scope.organizationId || !data) {
    return (
      <div data-state="empty" {...emptyPart}>
        <Text>{text.settings.noOrganization}</Text>
        <Link href={paths.createOrganization}>{text.settings.createLink}</Link>
      </div>
    );
  }
  return <>{children}</>;
}
