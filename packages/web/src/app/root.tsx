import { useQueryClient } from '@tanstack/react-query';
import { Button, Spin } from 'antd';
import { FullPageMessage } from '../components/full-page-message';
import { useEffect, useRef } from 'react';
import { Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import { holdsScanningRole, isAnonymousName } from '@arca/contracts';
import { useCurrentUser } from '../features/auth/api/get-current-user';
import { useFooter } from '../features/auth/api/get-footer';
import { useGlobalState } from '../features/auth/api/get-global-state';
import { useFeaturesConfig } from '../features/system/api/get-features-config';
import { useMicroservices } from '../features/system/api/get-microservices';
import { contentLoading } from '../api/content-loading';
import { resolveNavigation, type NavigationDecision, type RouteMeta } from './guards';
import type { MenuContext } from '../lib/menu';
import { rememberPathAfterLogin } from '../lib/post-login-path';
import { StartupContext, type StartupData } from '../lib/startup';
import { menuItems } from './menu';
import { ContentLoadingBar } from './layout/content-loading-bar';
import { setDateFormat } from '../components/time';
import { useOnboardingState } from '../features/onboarding';

/** The merged `handle` of the matched routes, innermost last. */
export function useRouteMeta(): RouteMeta {
  const matches = useMatches();
  return Object.assign({}, ...matches.map((m) => (m.handle ?? {}) as RouteMeta)) as RouteMeta;
}

/** Start-up data every guard and menu decision needs, loaded once; pages read it with `useStartupData`. */
function useLoadStartupData(): StartupData {
  const user = useCurrentUser();
  const globalState = useGlobalState();
  const services = useMicroservices();
  const features = useFeaturesConfig();
  const footer = useFooter();
  setDateFormat(globalState.data?.dateFormat ?? '');
  const admin = user.data?.admin === true;
  const onboarding = useOnboardingState(admin);
  const menu: MenuContext | undefined =
    user.data && globalState.data
      ? {
          admin: user.data.admin,
          scanningRole: holdsScanningRole(user.data),
          licenseRank: globalState.data.licenseRank,
          services: services.data?.services ?? {},
          features: features.data?.features ?? {},
          cloud: globalState.data.cloud,
          dedicatedCloud: globalState.data.dedicatedCloud,
        }
      : undefined;
  const loading =
    user.isPending ||
    globalState.isPending ||
    services.isPending ||
    features.isPending ||
    (admin && onboarding.isPending);
  const error = user.error ?? globalState.error;
  const retry = () => Promise.all([user.refetch(), globalState.refetch(), services.refetch(), features.refetch()]);
  return {
    user: user.data,
    menu,
    menuItems: menuItems(),
    serverName: footer.data?.serverName,
    needsOnboarding: Boolean(onboarding.data?.needsOnboarding && !onboarding.data.gettingStartedSeen),
    loading,
    error,
    retry,
  };
}

function Redirect({ decision }: { decision: Extract<NavigationDecision, { kind: 'redirect' }> }) {
  const navigate = useNavigate();
  useEffect(() => {
    if (decision.rememberPath) rememberPathAfterLogin(decision.rememberPath);
    navigate(decision.to, { replace: true, state: decision.message ? { message: decision.message } : undefined });
  }, [decision, navigate]);
  return null;
}

/** A navigation that does not happen: back where the user came from, or to the start when they came from nowhere. */
function Cancel() {
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => {
    if (location.key !== 'default') navigate(-1);
    else navigate('/', { replace: true });
  }, [location.key, navigate]);
  return null;
}

/**
 * Logs out and starts again at / when the signed-in user changes under the console (another tab
 * signed in as someone else).
 */
function useUserChangeHandling(name: string | undefined) {
  const previous = useRef(name);
  const client = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    const before = previous.current;
    previous.current = name;
    if (before && name && before !== name && !isAnonymousName(before) && !isAnonymousName(name)) {
      client.clear();
      contentLoading.reset();
      navigate('/', { replace: true });
    }
  }, [name, client, navigate]);
}

export function FullPageSpinner() {
  return (
    <div style={{ display: 'flex', height: '100vh', alignItems: 'center', justifyContent: 'center' }}>
      <Spin size="large" description="Loading…" />
    </div>
  );
}

/** Root of every route: loads the start-up data once and runs the navigation guards. */
export function Root() {
  const location = useLocation();
  const meta = useRouteMeta();
  const startup = useLoadStartupData();
  const { user, menu, loading, error, retry } = startup;
  useUserChangeHandling(user?.name);

  if (loading && !meta.public) return <FullPageSpinner />;
  if (error && !meta.public) {
    return (
      <FullPageMessage
        title="The server cannot be reached"
        text={error.message}
        action={
          <Button type="primary" onClick={() => void retry()}>
            Try again
          </Button>
        }
      />
    );
  }
  if (!meta.public && user && menu) {
    const decision = resolveNavigation({
      pathname: location.pathname,
      search: location.search,
      hash: location.hash,
      meta,
      user,
      menu,
      needsOnboarding: startup.needsOnboarding,
    });
    if (decision.kind === 'redirect') return <Redirect decision={decision} />;
    if (decision.kind === 'cancel') return <Cancel />;
  }
  return (
    <StartupContext.Provider value={startup}>
      <ContentLoadingBar />
      <Outlet />
    </StartupContext.Provider>
  );
}
