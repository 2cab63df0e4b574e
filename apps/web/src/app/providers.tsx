/**
 * All providers at once (the root's and antd's), for tests that render antd pages outside the
 * router. The app itself composes them by route: `RootProviders` in main.tsx, `AntdProviders`
 * lazily around the antd pages (router.tsx), so /entry does not load antd.
 */
import type { ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { AntdProviders } from './antd-providers';
import { RootProviders } from './root-providers';

export { createQueryClient } from './root-providers';

export function Providers({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  return (
    <RootProviders {...(queryClient ? { queryClient } : {})}>
      <AntdProviders>{children}</AntdProviders>
    </RootProviders>
  );
}
