/**
 * The re-authentication dialog: opened when the server answers that the session is
 * not fresh enough for an action; signing in again makes it fresh, then the action is retried.
 */
import { type FormEvent, useState } from "react";
import { useAuthContext } from "../../auth-context.js";
import type { AuthError } from "../../client/request.js";
import { useErrorText, useMessages } from "../../hooks/use-messages.js";
import { useSession } from "../../hooks/use-session.js";
import { Dialog } from "../../ui/dialog.js";
import { Button, Footer, Form } from "../../ui/elements.js";
import { PasswordField } from "../../ui/fields.js";
import { Root } from "../../ui/root.js";
import { CREDENTIAL_PROVIDER, useListAccounts } from "../account/hooks.js";

export function StepUpDialog({ onDone }: { onDone: (ok: boolean) => void }) {
  const { client, Link, paths } = useAuthContext();
  const messages = useMessages();
  const errorText = useErrorText();
  const session = useSession();
  const [password, setPassword] = useState("");
  const [error, setError] = useState<AuthError | null>(null);
  const [pending, setPending] = useState(false);
  const accounts = useListAccounts();
  // A user who signs in only with a provider has no password to type: they sign in again.
  const socialOnly =
    accounts.data !== undefined &&
    !accounts.data.some((account) => account.providerId === CREDENTIAL_PROVIDER);
  const email = socialOnly ? undefined : session.data?.user.email;
  const activeOrganizationId = session.data?.session.activeOrganizationId ?? null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email || !password) return;
    setPending(true);
    const result = await client.signIn.email({ email, password });
    if (result.error) {
      setPending(false);
      setError(result.error);
      return;
    }
    // The fresh session starts without the old one's active organization: carry it over.
    if (activeOrganizationId)
      await client.organization.setActive({ organizationId: activeOrganizationId });
    await client.session.refetch();
    setPending(false);
    onDone(true);
  };

  return (
    <Root component="step-up" variant="inline">
      <Dialog
        title={messages.common.stepUp.title}
        description={
          email ? messages.common.stepUp.description : messages.common.stepUp.descriptionSocial
        }
        onClose={() => onDone(false)}
      >
        {email ? (
          <Form onSubmit={submit}>
            <PasswordField
              label={messages.common.password}
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              error={error ? errorText(error) : null}
            />
            <Footer>
              <Button variant="secondary" onClick={() => onDone(false)}>
                {messages.common.cancel}
              </Button>
              <Button type="submit" pending={pending}>
                {messages.common.stepUp.confirm}
              </Button>
            </Footer>
          </Form>
        ) : (
          <Footer>
            <Button variant="secondary" onClick={() => onDone(false)}>
              {messages.common.cancel}
            </Button>
            <Link href={paths.signIn}>{messages.common.continue}</Link>
          </Footer>
        )}
      </Dialog>
    </Root>
  );
}
