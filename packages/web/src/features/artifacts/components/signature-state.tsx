import { SafetyCertificateOutlined, WarningOutlined } from '@ant-design/icons';
import { Space, Tooltip, Typography } from 'antd';
import { Link } from 'react-router';
import { SIGNATURE_STATE_LABELS, type ArtifactSignature } from '@arca/contracts';
import { StatusTag } from '../../../components/status-tag';
import { formatDateTime } from '../../../components/time';

/** The General tab's signature row: whether a trusted key signed the file, and with what. */
export function SignatureState({ signature, admin }: { signature: ArtifactSignature; admin: boolean }) {
  const state = signature.state!;
  return (
    <Space direction="vertical" size={2}>
      <Space wrap>
        <StatusTag
          tone={state === 'verified' ? 'success' : state === 'untrusted' ? 'warning' : 'error'}
          icon={state === 'verified' ? <SafetyCertificateOutlined /> : <WarningOutlined />}
        >
          {SIGNATURE_STATE_LABELS[state]}
        </StatusTag>
        <Typography.Text type="secondary">{signature.signaturePath!.split('/').pop()}</Typography.Text>
      </Space>
      <Typography.Text>{signature.message}</Typography.Text>
      {signature.signedAt && (
        <Tooltip title={`Key id ${signature.keyId}`}>
          <Typography.Text type="secondary">Signed {formatDateTime(signature.signedAt)}</Typography.Text>
        </Tooltip>
      )}
      {state === 'untrusted' && admin && (
        <Link to="/admin/artifactory/security/keys_management/public-keys">Manage trusted public keys</Link>
      )}
    </Space>
  );
}
