import type { SocialProvider } from "../../client/types.js";
import { useMessages } from "../../hooks/use-messages.js";
import { Button } from "../../ui/elements.js";
import { usePart } from "../../ui/parts.js";

export interface SocialButtonsProps {
  providers: readonly SocialProvider[];
  /** The provider whose redirect is under way. */
  pending: string | null;
  onSelect: (providerId: string) => void;
  disabled?: boolean;
}

/** One button per provider; the label names the provider, so each is distinct to a screen reader. */
export function SocialButtons({ providers, pending, onSelect, disabled }: SocialButtonsProps) {
  const { common } = useMessages();
  const part = usePart("social-buttons");
  if (providers.length === 0) return null;
  return (
    <div {...part}>
      {providers.map((provider) => (
        <Button
          key={provider.id}
          variant="secondary"
          part="social-button"
          data-provider={provider.id}
          pending={pending === provider.id}
          disabled={disabled || (pending !== null && pending !== provider.id)}
          onClick={() => onSelect(provider.id)}
        >
          {common.continueWith({ provider: provider.name })}
        </Button>
      ))}
    </div>
  );
}
