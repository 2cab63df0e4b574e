/** The real node dependencies of the login flow: the cookie and the server's node list. */
import { WEB_COMPANY_KEY, createApiClient, type ServerNode } from '@sunwatch/protocol';
import { currentLocale } from '../../../i18n';
import { clearNode, getNode, setNode } from '../../../app/node-url';
import type { NodeRetryDeps } from './node-retry';

let nodes: Promise<readonly ServerNode[]> | undefined;

/** queryDomainListNotLogin, once per page (spec §7: production only). Always from the page's own server. */
export function loadNodes(): Promise<readonly ServerNode[]> {
  if (!import.meta.env.PROD) return Promise.resolve([]);
  nodes ??= fetchNodes().catch((e: unknown) => {
    nodes = undefined;
    throw e;
  });
  return nodes;
}

/** A client of the page's own server: the list comes from there, whatever node is chosen. */
const ownServer = createApiClient({ baseUrl: '/public/', companyKey: WEB_COMPANY_KEY, getLocale: () => currentLocale() });

function fetchNodes(): Promise<readonly ServerNode[]> {
  return ownServer.call('queryDomainListNotLogin', {});
}

export const appNodeDeps: NodeRetryDeps = {
  production: import.meta.env.PROD,
  defaults: async () => (await loadNodes()).slice(0, 2),
  get: getNode,
  set: setNode,
  clear: clearNode,
};
