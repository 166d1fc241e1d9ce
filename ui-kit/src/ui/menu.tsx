/**
 * A menu button: the button says it opens a menu and whether it is open; the menu's
 * items are reached with the arrow keys, Home and End; Escape closes it and gives focus
 * back to the button; Tab, a click outside or choosing an item closes it. Items are
 * actions, links or radio choices (e.g. the active organization).
 */
import {
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
  /**
   * Which item a click, Enter or Space focuses: the first, or the checked choice (so a
   * switcher opens on the current one). The arrow keys always pick the first or last.
   */
  openFocus?: "first" | "checked";
  /** Marks the button busy while the menu's last choice is being applied. */
  pending?: boolean;
}

function items(menu: HTMLElement | null): HTMLElement[] {
  return menu
    ? [...menu.querySelectorAll<HTMLElement>(ITEMS)].filter(
        (element) => !element.hasAttribute("disabled"),
      )
    : [];
}

export function Menu({
  trigger,
  label,
  menuLabel,
  children,
  openFocus = "first",
  pending,
}: MenuProps) {
  const [open, setOpen] = useState(false);
  // Which item takes focus once the menu is in the page.
  const [initial, setInitial] = useState<"first" | "last" | "checked">("first");
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
    const checked = list.find((element) => element.getAttribute("aria-checked") === "true");
    const target =
      initial === "last" ? list[list.length - 1] : initial === "checked" ? checked : list[0];
    // An empty menu still takes focus, so that Escape and Tab reach it.
    (target ?? list[0] ?? menu.current)?.focus();
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

  const openAt = (where: "first" | "last" | "checked") => {
    setInitial(where);
    setOpen(true);
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === "ArrowDown" || event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      openAt(event.key === "ArrowDown" ? "first" : openFocus);
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
      if (list.length) list[(to + list.length) % list.length]?.focus();
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
          aria-busy={pending || undefined}
          data-state={open ? "open" : "closed"}
          {...buttonPart}
          onClick={() => (open ? close() : openAt(openFocus))}
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
  /** The button look it takes; without one the item carries no button styling. */
  variant?: "default" | "danger";
  /** The part name, to style one kind of item apart; by default from `checked`. */
  part?: string;
  /** A radio item shows its state as a mark of its own, not only through styling. */
  checkMark?: boolean;
}

/** An item that does something; the menu closes once it is chosen. */
export function MenuItem({
  children,
  onSelect,
  checked,
  disabled,
  pending,
  variant,
  part: partName,
  checkMark,
}: MenuItemProps) {
  const { close } = useContext(MenuContext);
  const part = usePart(partName ?? (checked === undefined ? "menu-item" : "menu-item-radio"));
  const checkPart = usePart("menu-item-check");
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
      {checkMark ? (
        <span aria-hidden="true" {...checkPart}>
          {checked ? "✓" : ""}
        </span>
      ) : null}
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
