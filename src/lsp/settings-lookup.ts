/**
 * Answers one `workspace/configuration` item from the configured `settings` table: section
 * "python.analysis" is `settings.python.analysis`; no section means the whole table; a missing
 * section is null, which LSP defines as "no setting" (servers fall back to their defaults).
 */
export function lookupSetting(settings: Readonly<Record<string, unknown>>, section: string | undefined): unknown {
  if (section === undefined || section === "") return settings;
  let current: unknown = settings;
  for (const part of section.split(".")) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, part)) return null;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
