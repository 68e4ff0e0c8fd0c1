import type { Registration, Unregistration } from "vscode-languageserver-protocol";

/**
 * Capabilities the server registered at run time (`client/registerCapability`). Pyright, for one,
 * registers some features dynamically instead of announcing them in `initialize`.
 */
export class DynamicRegistrations {
  private readonly byId = new Map<string, Registration>();

  register(registrations: readonly Registration[]): void {
    for (const registration of registrations) this.byId.set(registration.id, registration);
  }

  unregister(unregistrations: readonly Unregistration[]): void {
    for (const unregistration of unregistrations) this.byId.delete(unregistration.id);
  }

  /** The ids of the live registrations for `method`, in the order they came. */
  idsFor(method: string): string[] {
    return [...this.byId.values()].filter((registration) => registration.method === method).map((registration) => registration.id);
  }

  /** Whether some live registration is for `method`. */
  has(method: string): boolean {
    for (const registration of this.byId.values()) if (registration.method === method) return true;
    return false;
  }
}
