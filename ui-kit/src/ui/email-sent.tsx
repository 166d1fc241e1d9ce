/**
 * The screen once a link has gone out by email: where it went, and a way back to the
 * form to use another address.
 */
import type { ReactNode, RefObject } from "react";
import { Button, Header, Text, Title } from "./elements.js";
import { Root, type StyleProps } from "./root.js";

export interface EmailSentProps extends StyleProps {
  /** The component's name, as on its form step. */
  component: string;
  /** The step's name, for styling (e.g. "sent"). */
  state: string;
  title: ReactNode;
  /** The heading's element, so that the step change can move focus to it. */
  titleRef: RefObject<HTMLHeadingElement | null>;
  message: ReactNode;
  retryLabel: ReactNode;
  onRetry: () => void;
  footer?: ReactNode;
}

export function EmailSent({
  component,
  state,
  title,
  titleRef,
  message,
  retryLabel,
  onRetry,
  footer,
  className,
  classNames,
}: EmailSentProps) {
  return (
    <Root component={component} state={state} className={className} classNames={classNames}>
      <Header>
        <Title ref={titleRef}>{title}</Title>
        <Text>{message}</Text>
      </Header>
      <Button variant="secondary" onClick={onRetry}>
        {retryLabel}
      </Button>
      {footer}
    </Root>
  );
}
