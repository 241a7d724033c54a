import { useNavigation } from 'react-router';
import { useContentLoadingCount } from '../../api/content-loading';

/** A thin animated bar at the top while console calls are in flight or the next page is on its way. */
export function ContentLoadingBar() {
  const count = useContentLoadingCount();
  const navigating = useNavigation().state !== 'idle';
  if (count === 0 && !navigating) return null;
  return <div className="arca-loading-bar" role="progressbar" aria-label="Loading" aria-busy="true" />;
}
