import { Card } from 'antd';
import { PageHeader } from '../../../components/page-header';
import { useAccessTokens } from '../api/tokens';
import { TokensTable } from '../components/tokens-table';

/** Every user's access tokens, for administrators to review and revoke. */
export function AccessTokensPage() {
  const tokens = useAccessTokens(true);
  return (
    <>
      <PageHeader
        title="Access Tokens"
        description="Tokens of every user. Revoking one refuses its clients from their next request."
      />
      <Card>
        <TokensTable
          tokens={tokens.data ?? []}
          loading={tokens.isPending}
          showOwner
          emptyText="No user has an access token. Users generate them from Edit Profile."
        />
      </Card>
    </>
  );
}
