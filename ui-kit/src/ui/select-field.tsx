/** A labelled <select> whose error is tied to it, matching TextField. */
import { forwardRef, type ReactNode, type SelectHTMLAttributes, useId } from "react";
import { joinClasses, usePart } from "./parts.js";

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, "id"> {
  label: ReactNode;
  options: readonly { value: string; label: string }[];
  error?: string | null;
  /** Hide the label visually (it stays the select's name), e.g. in a table row. */
  hideLabel?: boolean;
  part?: string;
}

export const SelectField = forwardRef<HTMLSelectElement, SelectFieldProps>(function SelectField(
  { label, options, error, hideLabel, part = "field", className, ...select },
  ref,
) {
  const id = useId();
  const errorId = `${id}-error`;
  const fieldPart = usePart(part, className);
  const labelPart = usePart("label");
  const selectPart = usePart("select");
  const errorPart = usePart("field-error");
  return (
    <div data-state={error ? "invalid" : undefined} {...fieldPart}>
      <label
        htmlFor={id}
        {...labelPart}
        className={joinClasses(labelPart.className, hideLabel && "authd-visually-hidden")}
      >
        {label}
      </label>
      <select
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...selectPart}
        {...select}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error ? (
        <p id={errorId} {...errorPart}>
          {error}
        </p>
      ) : null}
    </div>
  );
});
