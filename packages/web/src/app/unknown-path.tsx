import { Result } from 'antd';
import { Navigate, useLocation } from 'react-router';
import { rewriteLegacyLink } from './guards';

/** Paths that belong to sub-applications: never sent to /404 by the console itself. */
export const SUB_APPLICATION_PREFIXES = [
  '/bundle',
  '/bundles',
  '/pipelines',
  '/admin/pipelines',
  '/distribution',
  '/xray',
  '/security',
  '/insight',
  '/access',
];

export function isSubApplicationPath(pathname: string): boolean {
  return SUB_APPLICATION_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/**
 * Unknown paths: legacy links are rewritten; a sub-application path stays where it is and says that
 * its service is not installed; everything else goes to /404.
 */
export function UnknownPath() {
  const location = useLocation();
  const legacy = rewriteLegacyLink(location.pathname, location.hash);
  if (legacy) return <Navigate to={legacy} replace />;
  if (isSubApplicationPath(location.pathname)) {
    return (
      <main className="arca-error-page">
        <Result
          status="info"
          title="SERVICE NOT FOUND"
          subTitle="The service behind this page is not installed on this deployment."
        />
      </main>
    );
  }
  return <Navigate to="/404" replace state={{ from: location.pathname }} />;
}
