/**
 * A menu button: the button says it opens a menu and whether it is open; the menu's
 * items are reached with the arrow keys, Home and End; Escape closes it and gives focus
 * back to the button; Tab, a click outside or choosing an item closes it.
 */
import {
  type ButtonHTMLAttributes,
  createContext,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { useAuthContext } from "../auth-context.js";
import { usePart } from "./parts.js";

const ITEMS = '[role="menuitem"], [role="menuitemradio"], [role="menuitemcheckbox"]';

interface MenuContextValue {
  /** Closes the menu; with `restoreFocus` focus goes back to the button. */
  close: (restoreFocus?: boolean) => void;
}

const MenuContext = createContext<MenuContextValue>({ close: () => {} });

export interface MenuProps {
  /** The button's content (e.g. an avatar). */
  trigger: ReactNode;
  /** The button's accessible name. */
  label: string;
  /** The menu's accessible name; the button's by default. */
  menuLabel?: string;
  children: ReactNode;
  triggerProps?: Omit<ButtonHTMLAttributes<HTMLButtonElement>, "onClick" | "onKeyDown">;
}

function items(menu: HTMLElement | null): HTMLElement[] {
  return menu ? [...menu.querySelectorAll<HTMLElement>(ITEMS)] : [];
}

export function Menu({ trigger, label, menuLabel, children, triggerProps }: MenuProps) {
  const [open, setOpen] = useState(false);
  // Which item takes focus once the menu is in the page.
  const [initial, setInitial] = useState<"first" | "last">("first");
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const buttonId = useId();
  const wrapperPart = usePart("menu-wrapper");
  const buttonPart = usePart("menu-button");
  const menuPart = usePart("menu");

  const close = useCallback((restoreFocus = true) => {
    setOpen(false);
    if (restoreFocus) button.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const list = items(menu.current);
    (initial === "last" ? list[list.length - 1] : list[0])?.focus();
  }, [open, initial]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: Event) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", onPointerDown);
    document.addEventListener("touchstart", onPointerDown);
    return () => {
      document.removeEventListener("mousedown", onPointerDown);
      document.removeEventListener("touchstart", onPointerDown);
    };
  }, [open]);

  const openAt = (where: "first" | "last") => {
    setInitial(where);
    setOpen(true);
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === "ArrowDown" || event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      openAt("first");
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      openAt("last");
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      close();
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = items(menu.current);
    const index = list.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      list[(to + list.length) % list.length]?.focus();
    };
    switch (event.key) {
      case "ArrowDown":
        return move(index + 1);
      case "ArrowUp":
        return move(index < 0 ? list.length - 1 : index - 1);
      case "Home":
        return move(0);
      case "End":
        return move(list.length - 1);
      case "Escape":
        event.preventDefault();
        event.stopPropagation();
        return close();
      case "Tab":
        // Focus goes back to the button first, so Tab moves on from where the menu was.
        return close();
      case " ":
        // Links do not answer the space bar by themselves; menu items should.
        if ((event.target as HTMLElement).tagName === "A") {
          event.preventDefault();
          (event.target as HTMLElement).click();
        }
        return;
    }
  };

  return (
    <MenuContext.Provider value={{ close }}>
      <div ref={container} data-state={open ? "open" : "closed"} {...wrapperPart}>
        <button
          ref={button}
          id={buttonId}
          type="button"
          aria-haspopup="menu"
          aria-expanded={open}
          aria-controls={open ? menuId : undefined}
          aria-label={label}
          data-state={open ? "open" : "closed"}
          {...buttonPart}
          {...triggerProps}
          onClick={() => (open ? close() : openAt("first"))}
          onKeyDown={onButtonKeyDown}
        >
          {trigger}
        </button>
        {open ? (
          <div
            ref={menu}
            id={menuId}
            role="menu"
            aria-label={menuLabel ?? label}
            tabIndex={-1}
            onKeyDown={onMenuKeyDown}
            {...menuPart}
          >
            {children}
          </div>
        ) : null}
      </div>
    </MenuContext.Provider>
  );
}

export interface MenuItemProps {
  children: ReactNode;
  onSelect?: () => void;
  /** A radio item (one of a set, e.g. the active organization) with its checked state. */
  checked?: boolean;
  disabled?: boolean;
  pending?: boolean;
  variant?: "default" | "danger";
}

/** An item that does something; the menu closes once it is chosen. */
export function MenuItem({
  children,
  onSelect,
  checked,
  disabled,
  pending,
  variant = "default",
}: MenuItemProps) {
  const { close } = useContext(MenuContext);
  const part = usePart(checked === undefined ? "menu-item" : "menu-item-radio");
  const common = {
    type: "button" as const,
    "aria-disabled": disabled || undefined,
    "aria-busy": pending || undefined,
    tabIndex: -1,
    "data-variant": variant,
    ...part,
    onClick: () => {
      if (disabled) return;
      close();
      onSelect?.();
    },
  };
  if (checked === undefined)
    return (
      <button role="menuitem" {...common}>
        {children}
      </button>
    );
  return (
    <button
      role="menuitemradio"
      aria-checked={checked}
      data-state={checked ? "checked" : "unchecked"}
      {...common}
    >
      {children}
    </button>
  );
}

/** An item that goes to a page, through the app's router. */
export function MenuLink({ href, children }: { href: string; children: ReactNode }) {
  const { Link } = useAuthContext();
  const { close } = useContext(MenuContext);
  const part = usePart("menu-item");
  return (
    <Link
      href={href}
      role="menuitem"
      tabIndex={-1}
      {...part}
      onClick={(_event: MouseEvent<HTMLAnchorElement>) => close(false)}
    >
      {children}
    </Link>
  );
}

/** Text in the menu that is not an item (e.g. who is signed in), or a group's heading. */
export function MenuLabel({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <div role="presentation" id={id} {...usePart("menu-label")}>
      {children}
    </div>
  );
}

/** A group of items, e.g. the radio set of organizations, named by a heading. */
export function MenuGroup({ label, children }: { label: string; children: ReactNode }) {
  const id = useId();
  const part = usePart("menu-group");
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset is for form controls; this groups menu items
    <div role="group" aria-labelledby={id} {...part}>
      <MenuLabel id={id}>{label}</MenuLabel>
      {children}
    </div>
  );
}

export function MenuSeparator() {
  return <hr {...usePart("menu-separator")} />;
}
