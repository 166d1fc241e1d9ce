/**
 * A button that opens a menu of actions or choices: arrow keys, Home and End move
 * between items, Escape closes it and returns focus to the button, and a click outside
 * or Tab away closes it. Items are real buttons so every one is reachable and named.
 */
import {
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { usePart } from "./parts.js";

export interface PopoverMenuItem {
  id: string;
  label: ReactNode;
  /** Items that pick one of several choices say whether they are the chosen one. */
  checked?: boolean;
  disabled?: boolean;
  /** The part name, for styling one kind of item apart. Default "menu-item". */
  part?: string;
  onSelect: () => void;
}

export interface PopoverMenuProps {
  /** What the button shows. */
  trigger: ReactNode;
  /** The button's accessible name when its content is not enough. */
  triggerLabel?: string;
  /** The menu's accessible name; by default the button names it. */
  menuLabel?: string;
  items: readonly PopoverMenuItem[];
  disabled?: boolean;
  pending?: boolean;
  /** Content after the items (e.g. a message), inside the menu. */
  footer?: ReactNode;
}

export function PopoverMenu({
  trigger,
  triggerLabel,
  menuLabel,
  items,
  disabled,
  pending,
  footer,
}: PopoverMenuProps) {
  const [open, setOpen] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  /** Which item gets focus when the menu opens: "first", "last" or the checked one. */
  const initialFocus = useRef<"first" | "last" | "checked">("checked");
  const buttonId = useId();
  const menuId = useId();
  const wrapperPart = usePart("menu-wrapper");
  const buttonPart = usePart("menu-button");
  const menuPart = usePart("menu");

  const itemElements = useCallback(
    () =>
      [...(menu.current?.querySelectorAll<HTMLElement>('[data-menu-item=""]') ?? [])].filter(
        (element) => !element.hasAttribute("disabled"),
      ),
    [],
  );

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const elements = itemElements();
    const checked = elements.find((element) => element.getAttribute("aria-checked") === "true");
    const target =
      initialFocus.current === "last"
        ? elements[elements.length - 1]
        : initialFocus.current === "checked"
          ? (checked ?? elements[0])
          : elements[0];
    (target ?? menu.current)?.focus();
    const onPointerDown = (event: PointerEvent | MouseEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", onPointerDown);
    return () => document.removeEventListener("mousedown", onPointerDown);
  }, [open, itemElements]);

  const openWith = (focus: "first" | "last" | "checked") => {
    initialFocus.current = focus;
    setOpen(true);
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      openWith("first");
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      openWith("last");
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const elements = itemElements();
    const index = elements.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      const count = elements.length;
      if (count) elements[((to % count) + count) % count]?.focus();
    };
    switch (event.key) {
      case "ArrowDown":
        move(index + 1);
        break;
      case "ArrowUp":
        move(index < 0 ? -1 : index - 1);
        break;
      case "Home":
        move(0);
        break;
      case "End":
        move(-1);
        break;
      case "Escape":
        event.preventDefault();
        event.stopPropagation();
        close(true);
        break;
      case "Tab":
        close(false);
        break;
    }
  };

  return (
    <div ref={wrapper} data-state={open ? "open" : "closed"} {...wrapperPart}>
      <button
        ref={button}
        id={buttonId}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={triggerLabel}
        aria-busy={pending || undefined}
        disabled={disabled}
        data-state={open ? "open" : "closed"}
        onClick={() => (open ? close(false) : openWith("checked"))}
        onKeyDown={onButtonKeyDown}
        {...buttonPart}
      >
        {trigger}
      </button>
      {open ? (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          tabIndex={-1}
          aria-label={menuLabel}
          aria-labelledby={menuLabel ? undefined : buttonId}
          onKeyDown={onMenuKeyDown}
          {...menuPart}
        >
          {items.map((item) => (
            <MenuItemButton
              key={item.id}
              item={item}
              onChoose={() => {
                close(true);
                item.onSelect();
              }}
            />
          ))}
          {footer}
        </div>
      ) : null}
    </div>
  );
}

function MenuItemButton({ item, onChoose }: { item: PopoverMenuItem; onChoose: () => void }) {
  const part = usePart(item.part ?? "menu-item");
  const checkPart = usePart("menu-item-check");
  const shared = {
    type: "button" as const,
    tabIndex: -1,
    disabled: item.disabled,
    "data-menu-item": "",
    "data-state": item.checked ? "checked" : undefined,
    onClick: onChoose,
    ...part,
  };
  if (item.checked === undefined) {
    return (
      <button role="menuitem" {...shared}>
        {item.label}
      </button>
    );
  }
  return (
    <button role="menuitemradio" aria-checked={item.checked} {...shared}>
      {item.label}
      <span aria-hidden="true" {...checkPart}>
        {item.checked ? "✓" : ""}
      </span>
    </button>
  );
}
