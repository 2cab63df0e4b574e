/**
 * Providers every route needs, the entry page included: texts and the query cache. Nothing of
 * antd: its ConfigProvider/App and locale pack come with the pages that render antd
 * (`antd-providers.tsx`, loaded lazily by the router), so /entry does not download antd.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import i18n, { currentLocale } from '../i18n';
import { isAuthError } from './api';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, e) => !isAuthError(e) && count < 1,
      },
    },
  });
}

export function RootProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const locale = currentLocale();
  useEffect(() => {
    document.documentElement.lang = locale.replace('_', '-');
  }, [locale]);
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </I18nextProvider>
  );
}
