/**
 * `defaults` with the caller's overrides of any of its waits (milliseconds): an override that is
 * negative or not a finite number falls back to the default.
 */
export function withOverrides<T extends { readonly [K in keyof T]: number }>(defaults: T, overrides: Partial<T>): T {
  const result = { ...defaults };
  for (const key of Object.keys(defaults) as (keyof T)[]) {
    const value = overrides[key];
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) result[key] = value as T[keyof T];
  }
  return result;
}
