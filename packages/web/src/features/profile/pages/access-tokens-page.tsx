import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Input, Select } from 'antd';
import { useMemo, useState } from 'react';
import type { CreatedToken } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { PageHeader } from '../../../components/page-header';
import { isPast } from '../../../components/time';
import { useAccessTokens, useUserNames } from '../api/tokens';
import { NewTokenModal } from '../components/new-token-modal';
import { SecretOnce } from '../components/secret-once';
import { TokensTable } from '../components/tokens-table';

type StateFilter = 'all' | 'active' | 'expired';

/** Every user's access tokens: administrators generate them for anyone, review and revoke them. */
export function AccessTokensPage() {
  const tokens = useAccessTokens(true);
  const [creating, setCreating] = useState(false);
  const users = useUserNames(creating);
  const [created, setCreated] = useState<CreatedToken | undefined>();
  const [query, setQuery] = useState('');
  const [state, setState] = useState<StateFilter>('all');
  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (tokens.data ?? []).filter((t) => {
      const expired = t.expiresAt !== null && isPast(t.expiresAt);
      if (state === 'active' && expired) return false;
      if (state === 'expired' && !expired) return false;
      return !q || t.user.toLowerCase().includes(q) || t.description.toLowerCase().includes(q);
    });
  }, [tokens.data, query, state]);
  return (
    <>
      <PageHeader
        title="Access Tokens"
        description="Tokens of every user. Revoking one refuses its clients from their next request."
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            Generate Token
          </Button>
        }
      />
      {created && <SecretOnce label={`token “${created.description}” for ${created.user}`} secret={created.token} />}
      {created?.refreshToken && <SecretOnce label="refresh token" secret={created.refreshToken} />}
      <Card>
        <Flex gap={12} wrap style={{ marginBottom: 16 }}>
          <Input.Search
            allowClear
            aria-label="Filter tokens"
            placeholder="Filter by user or description"
            style={{ maxWidth: 320 }}
            onChange={(e) => setQuery(e.target.value)}
          />
          <Select<StateFilter>
            aria-label="Token state"
            value={state}
            onChange={setState}
            style={{ width: 160 }}
            options={[
              { value: 'all', label: 'All tokens' },
              { value: 'active', label: 'Active' },
              { value: 'expired', label: 'Expired' },
            ]}
          />
        </Flex>
        <TokensTable
          tokens={rows}
          loading={tokens.isPending}
          showOwner
          emptyText={
            query || state !== 'all'
              ? 'No token matches the filter.'
              : 'No user has an access token. Generate one here, or users generate their own from Edit Profile.'
          }
          {...(tokens.isError ? { failure: { error: tokens.error, retry: () => void tokens.refetch() } } : {})}
        />
      </Card>
      <NewTokenModal
        open={creating}
        userNames={users.data ?? []}
        onClose={() => setCreating(false)}
        onCreated={(t) => {
          setCreating(false);
          setCreated(t);
          notifySuccess(`Token “${t.description}” was generated for ${t.user}`);
        }}
      />
    </>
  );
}
