import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { NOTIFICATION_SECONDS, setNotifier } from '../api/notifications';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** Routes the fetch wrapper's notifications to Ant Design's notification API of this app. */
function NotificationBridge() {
  const { notification } = AntApp.useApp();
  useEffect(() => {
    setNotifier({
      error: (message) =>
        notification.error({
          title: 'Error',
          description: <span style={{ whiteSpace: 'pre-line' }}>{message}</span>,
          duration: NOTIFICATION_SECONDS.error,
          placement: 'topRight',
        }),
      success: (message) =>
        notification.success({ title: message, duration: NOTIFICATION_SECONDS.success, placement: 'topRight' }),
    });
    return () => setNotifier(undefined);
  }, [notification]);
  return null;
}

export const THEME = {
  token: {
    colorPrimary: '#1f4fd1',
    colorLink: '#1f4fd1',
    // antd's default red (#ff4d4f) reaches 3.6:1 on white; danger buttons and errors need 4.5:1
    colorError: '#c9302c',
    // antd's amber warning text (#faad14) reaches 1.9:1 on white: warnings in text need 4.5:1 too
    colorWarningText: '#7a4a00',
    borderRadius: 6,
    fontSize: 14,
    colorBgLayout: '#f5f7fa',
    // darker than the defaults so that secondary text meets WCAG AA contrast on white and on the layout grey
    colorTextSecondary: 'rgba(0, 0, 0, 0.66)',
    colorTextDescription: 'rgba(0, 0, 0, 0.66)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.6)',
  },
  components: {
    Layout: { headerBg: '#0f1f3d', siderBg: '#ffffff', headerHeight: 56, headerPadding: '0 20px' },
  },
};

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** Whether the person asked their system for reduced motion (followed as it changes). */
function usePrefersReducedMotion(): boolean {
  const [reduced, setReduced] = useState(() => window.matchMedia?.(REDUCED_MOTION).matches ?? false);
  useEffect(() => {
    const query = window.matchMedia?.(REDUCED_MOTION);
    if (!query) return;
    const follow = () => setReduced(query.matches);
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, []);
  return reduced;
}

export function Providers({ client, children }: { client: QueryClient; children: ReactNode }) {
  const reducedMotion = usePrefersReducedMotion();
  const theme = useMemo(
    () => (reducedMotion ? { ...THEME, token: { ...THEME.token, motion: false } } : THEME),
    [reducedMotion],
  );
  return (
    <QueryClientProvider client={client}>
      <ConfigProvider theme={theme}>
        <AntApp>
          <NotificationBridge />
          {children}
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
