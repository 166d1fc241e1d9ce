/** Labelled inputs whose errors are tied to them for assistive technology. */
import { forwardRef, type InputHTMLAttributes, type ReactNode, useId, useState } from "react";
import { useMessages } from "../hooks/use-messages.js";
import { usePart } from "./parts.js";

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id"> {
  label: ReactNode;
  /** Shown under the input and announced with it; marks the input invalid. */
  error?: string | null;
  hint?: ReactNode;
  /** An element beside the label, e.g. a "Forgot password?" link. */
  labelAside?: ReactNode;
  /** The part name, so hosts can style one field apart. Default "field". */
  part?: string;
  /** Content after the input inside its wrapper (e.g. a show-password button). */
  trailing?: ReactNode;
}

export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, error, hint, labelAside, part = "field", trailing, className, ...input },
  ref,
) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ");
  const fieldPart = usePart(part, className);
  const labelRow = usePart("label-row");
  const labelPart = usePart("label");
  const controlPart = usePart("control");
  const inputPart = usePart("input");
  const hintPart = usePart("hint");
  const errorPart = usePart("field-error");
  return (
    <div data-state={error ? "invalid" : undefined} {...fieldPart}>
      <div {...labelRow}>
        <label htmlFor={id} {...labelPart}>
          {label}
        </label>
        {labelAside}
      </div>
      <div {...controlPart}>
        <input
          ref={ref}
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          {...inputPart}
          {...input}
        />
        {trailing}
      </div>
      {hint ? (
        <p id={hintId} {...hintPart}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} {...errorPart}>
          {error}
        </p>
      ) : null}
    </div>
  );
});

export const PasswordField = forwardRef<
  HTMLInputElement,
  Omit<TextFieldProps, "type" | "trailing">
>(function PasswordField(props, ref) {
  const { common } = useMessages();
  const [visible, setVisible] = useState(false);
  const toggle = usePart("password-toggle");
  return (
    <TextField
      ref={ref}
      {...props}
      type={visible ? "text" : "password"}
      trailing={
        <button
          type="button"
          aria-pressed={visible}
          aria-label={visible ? common.hidePassword : common.showPassword}
          onClick={() => setVisible((shown) => !shown)}
          {...toggle}
        >
          <span aria-hidden="true">{visible ? "◡" : "◉"}</span>
        </button>
      }
    />
  );
});

export function Checkbox({
  label,
  className,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "id"> & { label: ReactNode }) {
  const id = useId();
  const part = usePart("checkbox", className);
  const inputPart = usePart("checkbox-input");
  const labelPart = usePart("checkbox-label");
  return (
    <div {...part}>
      <input id={id} type="checkbox" {...inputPart} {...input} />
      <label htmlFor={id} {...labelPart}>
        {label}
      </label>
    </div>
  );
}
