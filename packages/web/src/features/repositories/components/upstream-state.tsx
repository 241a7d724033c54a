import { Alert } from 'antd';
import { formatDateTime, formatRelative } from '../../../components/time';
import { useUpstreamState } from '../api/remote';

/** A remote repository's state on its page: offline by choice, its upstream answering, or failing and why. */
export function UpstreamState({ repoKey }: { repoKey: string }) {
  const state = useUpstreamState(repoKey, true);
  if (!state.data) return null;
  const { offline, reachable, since, lastError } = state.data;
  const when = since ? <span title={formatDateTime(since)}>{formatRelative(since)}</span> : undefined;
  if (offline)
    return (
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 20 }}
        title="Offline"
        description="Only cached files are served; the upstream is never asked. Turn Offline off below to fetch again."
      />
    );
  if (reachable === null)
    return (
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 20 }}
        title="Not asked yet"
        description="No request has reached the upstream since these settings were saved. Use Test to check them now."
      />
    );
  return reachable ? (
    <Alert type="success" showIcon style={{ marginBottom: 20 }} title={<>Upstream answering since {when}</>} />
  ) : (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 20 }}
      title={<>Upstream failing since {when}</>}
      description={`${lastError ?? 'It did not answer.'} Cached files are still served; clients get a 502 naming this repository for the rest.`}
    />
  );
}
