import { useEffect, useState, type ReactNode } from 'react';
import { App as AntdApp, ConfigProvider } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import i18n, { currentLocale } from '../i18n';
import { antdLocale, applyDayjsLocale } from './locale-packs';
import { setMessageInstance } from './notify';
import { skinColor, useSkin } from './theme';
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

function MessageBridge() {
  const { message } = AntdApp.useApp();
  useEffect(() => {
    setMessageInstance(message);
    return () => setMessageInstance(undefined);
  }, [message]);
  return null;
}

export function Providers({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const locale = currentLocale();
  const skin = useSkin();
  applyDayjsLocale(locale);
  useEffect(() => {
    document.documentElement.lang = locale.replace('_', '-');
  }, [locale]);
  return (
    <I18nextProvider i18n={i18n}>
      <ConfigProvider locale={antdLocale(locale)} theme={{ token: { colorPrimary: skinColor(skin) } }}>
        <AntdApp>
          <MessageBridge />
          <QueryClientProvider client={client}>{children}</QueryClientProvider>
        </AntdApp>
      </ConfigProvider>
    </I18nextProvider>
  );
}
