import type { z } from "zod";

/** What could be read from a table that may have failed its schema. */
export interface Salvaged<T> {
  /** The table's valid keys, parsed; keys that had problems are absent. */
  readonly data: Partial<T>;
  /** Top-level keys that had problems (already reported by the whole-document parse). */
  readonly broken: ReadonlySet<string>;
}

/**
 * Parses one `[[server]]` or `[[workspace]]` table, keeping its valid keys when others are wrong,
 * so that the loader can go on to check executables, roots and names and report every problem in
 * one run rather than stopping at the first bad key. Returns null when the value is not a table.
 */
export function salvage<S extends z.ZodObject>(schema: S, raw: unknown): Salvaged<z.output<S>> | null {
  const first = schema.safeParse(raw);
  if (first.success) return { data: first.data, broken: new Set() };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const broken = new Set<string>();
  for (const issue of first.error.issues) {
    const key = issue.path[0];
    if (typeof key === "string") broken.add(key);
    else if (issue.code === "unrecognized_keys") issue.keys.forEach((unknown) => broken.add(unknown));
  }
  const kept = Object.fromEntries(Object.entries(raw).filter(([key]) => !broken.has(key)));
  const second = schema.partial().safeParse(kept);
  return second.success ? { data: second.data as Partial<z.output<S>>, broken } : null;
}
