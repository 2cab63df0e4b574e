/**
 * Login's node retry (spec §4 "Node retry (production only)", §8 "261 on login triggers the node
 * switch and retry in production"): the login first goes to the default node (the cookie is
 * cleared before, §4 step 2); when it answers 261 (user not found), the cookie is toggled between
 * the two default production nodes and the login is tried once more. When that fails too, the
 * cookie is removed and the error shown.
 */
import { ApiCallError } from '@sunwatch/protocol';
import type { ServerNode } from '@sunwatch/protocol';

export interface NodeRetryDeps {
  /** Production build only; elsewhere 261 simply shows its message. */
  production: boolean;
  /** The two default production nodes (the first two of queryDomainListNotLogin). */
  defaults(): Promise<readonly ServerNode[]>;
  get(): string;
  set(url: string): void;
  clear(): void;
}

/** The other default node than the current one (the first when the current is neither). */
export function otherNode(current: string, defaults: readonly ServerNode[]): ServerNode | undefined {
  const [a, b] = defaults;
  if (!a || !b) return undefined;
  return current === b.url ? a : b;
}

export async function withNodeRetry<T>(login: () => Promise<T>, deps: NodeRetryDeps): Promise<T> {
  try {
    return await login();
  } catch (e) {
    if (!deps.production || !(e instanceof ApiCallError) || e.err !== 261) throw e;
    let next: ServerNode | undefined;
    try {
      next = otherNode(deps.get(), await deps.defaults());
    } catch {
      next = undefined;
    }
    if (!next) throw e;
    if (next.url) deps.set(next.url);
    else deps.clear();
    try {
      return await login();
    } catch (again) {
      deps.clear();
      throw again;
    }
  }
}
