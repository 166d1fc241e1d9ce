/** The small building blocks every screen is made of, each a named part. */
import {
  type ButtonHTMLAttributes,
  type FormHTMLAttributes,
  forwardRef,
  type HTMLAttributes,
  type ReactNode,
} from "react";
import { useMessages } from "../hooks/use-messages.js";
import { usePart } from "./parts.js";

export const Title = forwardRef<
  HTMLHeadingElement,
  HTMLAttributes<HTMLHeadingElement> & { level?: 1 | 2 | 3 }
>(function Title({ level = 2, className, ...rest }, ref) {
  const part = usePart("title", className);
  const Heading = `h${level}` as const;
  // Focusable by script so each step can move focus to its heading.
  return <Heading ref={ref} tabIndex={-1} {...part} {...rest} />;
});

export function Text({ className, ...rest }: HTMLAttributes<HTMLParagraphElement>) {
  return <p {...usePart("text", className)} {...rest} />;
}

export function Header({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div {...usePart("header", className)} {...rest} />;
}

export function Footer({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div {...usePart("footer", className)} {...rest} />;
}

export const Form = forwardRef<HTMLFormElement, FormHTMLAttributes<HTMLFormElement>>(function Form(
  { className, ...rest },
  ref,
) {
  // The kit validates itself, in the page's language, and announces what it finds.
  return <form ref={ref} noValidate {...usePart("form", className)} {...rest} />;
});

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: "primary" | "secondary" | "danger" | "ghost" | "link";
  /** Shows a spinner, keeps the label for screen readers, and blocks a second click. */
  pending?: boolean;
  part?: string;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  {
    variant = "primary",
    pending = false,
    part = "button",
    className,
    children,
    disabled,
    type,
    ...rest
  },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type ?? "button"}
      data-variant={variant}
      data-state={pending ? "pending" : undefined}
      aria-busy={pending || undefined}
      disabled={disabled || pending}
      {...usePart(part, className)}
      {...rest}
    >
      {pending ? <Spinner /> : null}
      {children}
    </button>
  );
});

export function Spinner() {
  return <span aria-hidden="true" {...usePart("spinner")} />;
}

/** A placeholder while an answer loads: announced once, then replaced. */
export function Loading({ label }: { label?: string }) {
  const { common } = useMessages();
  return (
    <div role="status" {...usePart("loading")}>
      <Spinner />
      <span {...usePart("loading-label")}>{label ?? common.loading}</span>
    </div>
  );
}

export function Divider({ children }: { children?: ReactNode }) {
  const part = usePart("divider");
  const label = usePart("divider-label");
  return <div {...part}>{children ? <span {...label}>{children}</span> : null}</div>;
}

export function Avatar({
  name,
  image,
  size = "md",
}: {
  name: string;
  image?: string | null;
  size?: "sm" | "md" | "lg";
}) {
  const part = usePart("avatar");
  const imagePart = usePart("avatar-image");
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? "")
    .join("");
  return (
    <span data-size={size} aria-hidden="true" {...part}>
      {image ? <img src={image} alt="" {...imagePart} /> : initials || "?"}
    </span>
  );
}
