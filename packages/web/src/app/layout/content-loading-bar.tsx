import { useContentLoadingCount } from '../../api/content-loading';

/** A thin animated bar at the top while console calls are in flight. */
export function ContentLoadingBar() {
  const count = useContentLoadingCount();
  if (count === 0) return null;
  return <div className="arca-loading-bar" role="progressbar" aria-label="Loading" aria-busy="true" />;
}
