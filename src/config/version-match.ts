/**
 * Whether a reported version satisfies a pin: equal, or containing the pin as a whole token
 * (clangd's `Debian clangd version 14.0.6 linux+grpc` matches `14.0.6`, but `14.0.61` does not).
 */
export function versionMatches(pin: string, reported: string): boolean {
  const text = reported.trim();
  if (text === pin) return true;
  const escaped = pin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[\\s,;:()\\[\\]"'=v])${escaped}($|[\\s,;:()\\[\\]"'+-])`).test(text);
}
