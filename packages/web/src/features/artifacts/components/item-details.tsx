import {
  CopyOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EyeOutlined,
  RollbackOutlined,
  ScissorOutlined,
  SettingOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { Button, Card, Descriptions, Result, Skeleton, Space, Tabs, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import {
  ERROR_MESSAGES,
  packageTypeLabel,
  type EffectiveActions,
  type ItemActionName,
  type ItemInfo,
} from '@arca/contracts';
import { formatBytes } from '../../../components/format';
import { formatDateTime } from '../../../components/time';
import { ArchiveTab } from './archive-tab';
import { ArtifactBuildsTab } from '../../builds';
import { SecurityTab } from '../../packages';
import { NodeIcon } from './node-icon';
import { PropertiesTab } from './properties-tab';
import { SignatureState } from './signature-state';
import { useArtifactSignature } from '../api/get-signature';
import { useStartupData } from '../../../lib/startup';

export type ItemAction =
  'deploy' | 'download' | 'downloadFolder' | 'view' | 'copy' | 'move' | 'delete' | 'restore' | 'setMeUp' | 'emptyTrash';

export interface ItemDetailsProps {
  info: ItemInfo | undefined;
  /** What the user may do here; undefined while it is being asked. */
  allowed: EffectiveActions | undefined;
  loading: boolean;
  notFound: boolean;
  onAction: (action: ItemAction) => void;
  onViewArchiveEntry: (entry: string) => void;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-sh|yaml|x-yaml|toml))/;

function Checksum({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Typography.Text type="secondary" style={{ display: 'inline-block', width: 64 }}>
        {label}
      </Typography.Text>
      <Typography.Text code copyable={{ text: value, tooltips: [`Copy ${label}`, 'Copied'] }} style={{ fontSize: 12 }}>
        {value}
      </Typography.Text>
    </div>
  );
}

/** The right pane: the selected item's General tab, properties and archive entries, and its actions. */
export function ItemDetails({ info, allowed, loading, notFound, onAction, onViewArchiveEntry }: ItemDetailsProps) {
  const { user } = useStartupData();
  const signed = useArtifactSignature(
    info?.repoKey,
    info?.path ?? '',
    (info?.type === 'file' || info?.type === 'archive') && info.repoType !== 'trashcan',
  );
  if (notFound) return <Result status="404" title="Not found" subTitle={ERROR_MESSAGES.notFound} />;
  if (loading || !info)
    return (
      <Card>
        {loading ? (
          <Skeleton active />
        ) : (
          <Typography.Text type="secondary">Select a repository, folder or file in the tree.</Typography.Text>
        )}
      </Card>
    );
  const inTrash = info.repoType === 'trashcan';
  const isFile = info.type === 'file' || info.type === 'archive';
  const canHoldFiles = !inTrash && info.repoType !== 'remote' && (info.type === 'repository' || info.type === 'folder');
  const viewable = isFile && (TEXT_TYPES.test(info.mimeType ?? '') || info.size === 0);
  const kind = info.type === 'repository' ? info.repoType : info.type;
  const checking = 'Checking your permissions…';
  /** A button for an action the server may refuse: disabled, with the server's reason, when it does. */
  const guarded = (
    action: ItemAction & ItemActionName,
    label: string,
    icon: ReactNode,
    extra: { primary?: boolean; danger?: boolean; disabledReason?: string } = {},
  ) => {
    const reason = extra.disabledReason ?? (allowed ? allowed.reasons[action] : checking);
    const refused = !allowed?.allowed.includes(action) || extra.disabledReason !== undefined;
    const button = (
      <Button
        type={extra.primary ? 'primary' : 'default'}
        danger={extra.danger}
        icon={icon}
        disabled={refused}
        aria-description={refused ? reason : undefined}
        onClick={() => onAction(action)}
      >
        {label}
      </Button>
    );
    return refused ? (
      <Tooltip key={action} title={reason}>
        {button}
      </Tooltip>
    ) : (
      <span key={action}>{button}</span>
    );
  };

  const actions = (
    <Space wrap>
      {canHoldFiles && guarded('deploy', 'Deploy', <UploadOutlined />, { primary: true })}
      {isFile && (
        <Button icon={<DownloadOutlined />} onClick={() => onAction('download')}>
          Download
        </Button>
      )}
      {info.type === 'folder' && !inTrash && (
        <Button icon={<DownloadOutlined />} onClick={() => onAction('downloadFolder')}>
          Download folder (zip)
        </Button>
      )}
      {viewable && (
        <Button icon={<EyeOutlined />} onClick={() => onAction('view')}>
          View
        </Button>
      )}
      {info.type !== 'repository' && !inTrash && (
        <>
          {guarded('copy', 'Copy', <CopyOutlined />)}
          {guarded('move', 'Move', <ScissorOutlined />)}
        </>
      )}
      {inTrash && info.type !== 'repository' && info.trash && guarded('restore', 'Restore', <RollbackOutlined />)}
      {info.type !== 'repository' &&
        guarded('delete', inTrash ? 'Delete permanently' : 'Delete', <DeleteOutlined />, { danger: true })}
      {info.type === 'repository' && !inTrash && (
        <Button icon={<SettingOutlined />} onClick={() => onAction('setMeUp')}>
          Set Me Up
        </Button>
      )}
      {info.type === 'repository' &&
        inTrash &&
        guarded('emptyTrash', 'Empty trash can', <DeleteOutlined />, {
          danger: true,
          disabledReason: info.files ? undefined : 'The trash can is empty.',
        })}
    </Space>
  );

  const general = (
    <Descriptions
      column={1}
      size="small"
      styles={{ label: { width: 150 } }}
      items={[
        { key: 'name', label: 'Name', children: info.name },
        {
          key: 'path',
          label: 'Repository path',
          children: <Typography.Text copyable>{`${info.repoKey}/${info.path}`}</Typography.Text>,
        },
        { key: 'pkg', label: 'Package type', children: packageTypeLabel(info.pkgType) },
        ...(info.type === 'repository' || info.type === 'folder'
          ? [
              { key: 'files', label: 'Files', children: String(info.files ?? 0) },
              { key: 'folders', label: 'Folders', children: String(info.folders ?? 0) },
              { key: 'size', label: 'Total size', children: formatBytes(info.size) },
            ]
          : [
              {
                key: 'size',
                label: 'Size',
                children: `${formatBytes(info.size)} (${info.size.toLocaleString()} bytes)`,
              },
            ]),
        ...(info.created ? [{ key: 'created', label: 'Created', children: formatDateTime(info.created) }] : []),
        ...(info.createdBy ? [{ key: 'by', label: 'Deployed by', children: info.createdBy }] : []),
        ...(info.lastModified && info.type !== 'repository'
          ? [
              {
                key: 'modified',
                label: 'Last modified',
                children: `${formatDateTime(info.lastModified)} by ${info.modifiedBy}`,
              },
            ]
          : []),
        ...(info.trash
          ? [
              {
                key: 'origin',
                label: 'Deleted from',
                children: `${info.trash.originalRepository}/${info.trash.originalPath}`,
              },
              {
                key: 'deleted',
                label: 'Deleted',
                children: `${formatDateTime(info.trash.deletedAt)} by ${info.trash.deletedBy}`,
              },
            ]
          : []),
        ...(info.mimeType ? [{ key: 'mime', label: 'Media type', children: info.mimeType }] : []),
        ...(info.checksums
          ? [
              {
                key: 'checksums',
                label: 'Checksums',
                children: (
                  <div>
                    <Checksum label="SHA-256" value={info.checksums.sha256} />
                    <Checksum label="SHA-1" value={info.checksums.sha1} />
                    <Checksum label="MD5" value={info.checksums.md5} />
                  </div>
                ),
              },
            ]
          : []),
        ...(signed.data?.state
          ? [
              {
                key: 'signature',
                label: 'Signature',
                children: <SignatureState signature={signed.data} admin={Boolean(user?.admin)} />,
              },
            ]
          : []),
        ...(info.downloadUri
          ? [
              {
                key: 'url',
                label: 'URL to file',
                children: (
                  <Typography.Link href={info.downloadUri} copyable={{ text: info.downloadUri }}>
                    {info.downloadUri}
                  </Typography.Link>
                ),
              },
            ]
          : []),
      ]}
    />
  );

  return (
    <Card
      title={
        <Space>
          <NodeIcon kind={kind} />
          <span>{info.name}</span>
        </Space>
      }
    >
      <div style={{ marginBottom: 16 }}>{actions}</div>
      <Tabs
        items={[
          { key: 'general', label: 'General', children: general },
          ...(info.type !== 'repository'
            ? [
                {
                  key: 'properties',
                  label: 'Properties',
                  children: (
                    <PropertiesTab
                      repoKey={info.repoKey}
                      path={info.path}
                      folder={info.type === 'folder'}
                      readOnly={inTrash || !allowed?.allowed.includes('annotate')}
                    />
                  ),
                },
              ]
            : []),
          ...(isFile && !inTrash
            ? [
                {
                  key: 'builds',
                  label: 'Builds',
                  children: <ArtifactBuildsTab repoKey={info.repoKey} path={info.path} />,
                },
              ]
            : []),
          // the scan of the version a file of a package belongs to
          ...(isFile && !inTrash && info.pkgType && info.pkgType !== 'generic'
            ? [
                {
                  key: 'security',
                  label: 'Security',
                  children: <SecurityTab repoKey={info.repoKey} path={info.path} />,
                },
              ]
            : []),
          ...(info.type === 'archive'
            ? [
                {
                  key: 'archive',
                  label: 'Archive entries',
                  children: <ArchiveTab repoKey={info.repoKey} path={info.path} onView={onViewArchiveEntry} />,
                },
              ]
            : []),
        ]}
      />
    </Card>
  );
}
