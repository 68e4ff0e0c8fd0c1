import type { Registration, Unregistration } from "vscode-languageserver-protocol";

/**
 * Capabilities the server registered at run time (`client/registerCapability`). Pyright, for one,
 * registers some features dynamically instead of announcing them in `initialize`.
 */
export class DynamicRegistrations {
  private readonly byId = new Map<string, Registration>();
  private readonly listeners = new Set<() => void>();

  register(registrations: readonly Registration[]): void {
    for (const registration of registrations) this.byId.set(registration.id, registration);
    this.changed();
  }

  unregister(unregistrations: readonly Unregistration[]): void {
    for (const unregistration of unregistrations) this.byId.delete(unregistration.id);
    this.changed();
  }

  /** Called after every change; returns an unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** Whether some live registration is for `method`. */
  has(method: string): boolean {
    for (const registration of this.byId.values()) if (registration.method === method) return true;
    return false;
  }
}
