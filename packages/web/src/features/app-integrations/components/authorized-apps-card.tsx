import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, List, Typography } from 'antd';
import { APP_INTEGRATION_MESSAGES, type UserAuthorization } from '@arca/contracts';
import { apiFetch, runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { formatDateTime } from '../../../components/time';

/** The applications a user authorised, each revocable (its tokens end with it). */
export function AuthorizedAppsCard({ username }: { username: string }) {
  const client = useQueryClient();
  const { modal } = App.useApp();
  const key = ['app-integrations', 'authorizations', username];
  const list = useQuery({
    queryKey: key,
    queryFn: () => apiFetch<UserAuthorization[]>(`access/integration/authorization/${encodeURIComponent(username)}`),
  });
  const revoke = useMutation({
    mutationFn: (clientId: string) =>
      apiFetch<void>(
        `access/integration/authorization/${encodeURIComponent(clientId)}/${encodeURIComponent(username)}`,
        {
          method: 'DELETE',
        },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
  return (
    <Card title="Authorised applications" loading={list.isPending} style={{ marginBottom: 20 }}>
      <List
        dataSource={list.data ?? []}
        locale={{ emptyText: <Typography.Text type="secondary">No application acts on your behalf.</Typography.Text> }}
        renderItem={(a) => (
          <List.Item
            actions={[
              <Button
                key="revoke"
                danger
                size="small"
                aria-label={`Revoke ${a.name}`}
                onClick={() =>
                  modal.confirm({
                    title: `Revoke ${a.name}?`,
                    content: 'The application can no longer act on your behalf; the tokens it holds stop working.',
                    okText: 'Revoke',
                    okButtonProps: { danger: true },
                    onOk: () =>
                      runSafely(async () => {
                        await revoke.mutateAsync(a.client_id);
                        notifySuccess(APP_INTEGRATION_MESSAGES.revoked);
                      }),
                  })
                }
              >
                Revoke
              </Button>,
            ]}
          >
            <List.Item.Meta
              title={a.name}
              description={<Typography.Text type="secondary">Authorised {formatDateTime(a.granted)}</Typography.Text>}
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
