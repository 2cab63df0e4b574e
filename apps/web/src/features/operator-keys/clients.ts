import type { CompanyKeyClient } from '@sunwatch/protocol';

/** Platform names: product names, the same in every language. */
export const CLIENT_LABELS: Record<CompanyKeyClient, string> = {
  web: 'Web',
  android: 'Android',
  ios: 'iOS',
  windows: 'Windows',
  macos: 'macOS',
  api: 'API',
};
