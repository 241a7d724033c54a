import {
  BranchesOutlined,
  CodeOutlined,
  GithubOutlined,
  GitlabOutlined,
  PlusOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import { Alert, Button, Card, Flex, Space, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  INTEGRATION_CARD_SIZE,
  VCS_MESSAGES,
  VCS_VENDORS,
  type IntegrationCard,
  type VcsVendor,
} from '@arca/contracts';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { StatusTag } from '../../../components/status-tag';
import { useIntegrationGroups } from '../api/integrations';
import { DevToolModal, type DevTool } from '../components/dev-tool-modal';
import { GitIntegrationModal } from '../components/git-integration-modal';

export const INTEGRATIONS_PATH = '/integrations';

const ICONS: Record<string, ReactNode> = {
  github: <GithubOutlined />,
  gitlab: <GitlabOutlined />,
  bitbucket_cloud: <BranchesOutlined />,
  bitbucket_server: <BranchesOutlined />,
  vscode: <CodeOutlined />,
  jetbrains: <ToolOutlined />,
  cli: <CodeOutlined />,
};

const isVendor = (key: string): key is VcsVendor => (VCS_VENDORS as readonly string[]).includes(key);

/** The grid's card: 204×218 (spec part 2 §9), the item's icon and name as its header. */
function CardFrame({ card, link, children }: { card: IntegrationCard; link?: string; children: ReactNode }) {
  const title = (
    <Space>
      <span aria-hidden="true" style={{ fontSize: 22 }}>
        {ICONS[card.key]}
      </span>
      {card.name}
    </Space>
  );
  return (
    <Card
      size="small"
      style={{ width: INTEGRATION_CARD_SIZE.width, height: INTEGRATION_CARD_SIZE.height }}
      styles={{ body: { display: 'flex', flexDirection: 'column', gap: 8, height: 'calc(100% - 40px)' } }}
      title={link ? <Link to={link}>{title}</Link> : title}
    >
      {children}
    </Card>
  );
}

/**
 * A card of the grid (spec part 1 §2): 204×218, CONNECTED or DISCONNECTED, Connect when it has no
 * integration yet and + when it has; its header leads to its instances once it has some; a
 * connected card no service uses says so.
 */
function VendorCard({ card, onAdd }: { card: IntegrationCard; onAdd: () => void }) {
  const active = card.connected || card.configured;
  return (
    <CardFrame card={card} {...(active ? { link: `${INTEGRATIONS_PATH}/${card.key}` } : {})}>
      <div>
        <StatusTag tone={active ? 'success' : 'neutral'}>{active ? 'CONNECTED' : 'DISCONNECTED'}</StatusTag>
      </div>
      <Typography.Text type="secondary">
        {card.integrations ? `${card.integrations} instance${card.integrations === 1 ? '' : 's'}` : 'Not connected yet'}
      </Typography.Text>
      {card.connected && !card.configured && (
        <Alert type="info" title={VCS_MESSAGES.connectService} style={{ padding: '2px 8px', fontSize: 12 }} />
      )}
      <div style={{ marginTop: 'auto' }}>
        {active ? (
          <Button icon={<PlusOutlined />} aria-label={`Add a ${card.name} integration`} onClick={onAdd} />
        ) : (
          <Button type="primary" onClick={onAdd} aria-label={`Connect ${card.name}`}>
            Connect
          </Button>
        )}
      </div>
    </CardFrame>
  );
}

function ToolCard({ card, onOpen }: { card: IntegrationCard; onOpen: () => void }) {
  return (
    <CardFrame card={card}>
      <Typography.Text type="secondary">Connect it with your own credentials.</Typography.Text>
      <div style={{ marginTop: 'auto' }}>
        <Button type="primary" onClick={onOpen} aria-label={`Set up ${card.name}`}>
          Set up
        </Button>
      </div>
    </CardFrame>
  );
}

/** The integrations grid: source control, developer tools (only the groups this deployment offers). */
export function IntegrationsPage() {
  const groups = useIntegrationGroups();
  const [adding, setAdding] = useState<VcsVendor>();
  const [tool, setTool] = useState<DevTool>();
  return (
    <>
      <PageHeader
        title="Integrations"
        description="Connect the places code lives and the tools people use to this deployment."
      />
      {groups.isError ? (
        <LoadError what="Integrations" error={groups.error} onRetry={() => void groups.refetch()} />
      ) : (
        <Space orientation="vertical" size={24} style={{ width: '100%' }}>
          {(groups.data ?? [])
            .filter((group) => group.available && group.items.length > 0)
            .map((group) => (
              <section key={group.type} aria-label={group.type}>
                <Typography.Title level={2} style={{ fontSize: 16 }}>
                  {group.type}
                </Typography.Title>
                <Flex gap={16} wrap>
                  {group.items.map((card) =>
                    isVendor(card.key) ? (
                      <VendorCard key={card.key} card={card} onAdd={() => setAdding(card.key as VcsVendor)} />
                    ) : (
                      <ToolCard key={card.key} card={card} onOpen={() => setTool(card.key as DevTool)} />
                    ),
                  )}
                </Flex>
              </section>
            ))}
          {groups.isPending && <Card loading />}
        </Space>
      )}
      {adding && <GitIntegrationModal vendor={adding} open onClose={() => setAdding(undefined)} />}
      <DevToolModal tool={tool} onClose={() => setTool(undefined)} />
    </>
  );
}
