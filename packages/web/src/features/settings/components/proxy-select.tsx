import { Select } from 'antd';
import { useProxies } from '../api/proxies';

/**
 * The proxy a remote repository or webhook goes through: empty for the default proxy (or a direct
 * connection when there is none), else one by key.
 */
export function ProxySelect({
  value,
  onChange,
  id,
}: {
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
}) {
  const proxies = useProxies();
  const fallback = proxies.data?.find((p) => p.defaultProxy);
  return (
    <Select
      id={id}
      value={value ?? ''}
      onChange={onChange}
      loading={proxies.isPending}
      aria-label="Proxy"
      options={[
        { value: '', label: fallback ? `Default proxy (${fallback.key})` : 'No proxy: connect directly' },
        ...(proxies.data ?? []).map((p) => ({ value: p.key, label: `${p.key} (${p.host}:${p.port})` })),
      ]}
    />
  );
}
