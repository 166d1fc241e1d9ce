import { useEffect, useState } from "react";

/**
 * The page's query parameters, read after mount so that the server render and the
 * first browser render agree; null until then.
 */
export function useUrlQuery(): URLSearchParams | null {
  const [query, setQuery] = useState<URLSearchParams | null>(null);
  useEffect(() => {
    const { location } = globalThis as { location?: { search?: string } };
    setQuery(new URLSearchParams(location?.search ?? ""));
  }, []);
  return query;
}
