import { Navigate, useLocation } from 'react-router';
import { rewriteLegacyLink } from './guards';

/**
 * Unknown paths: legacy links are rewritten; everything else goes to /404 (a sub-application's
 * path has its own page in the console's frame, see sub-applications.ts).
 */
export function UnknownPath() {
  const location = useLocation();
  const legacy = rewriteLegacyLink(location.pathname, location.hash);
  if (legacy) return <Navigate to={legacy} replace />;
  return <Navigate to="/404" replace state={{ from: location.pathname }} />;
}
