import { CheckCircleFilled, ExclamationCircleFilled, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Descriptions, Input, Row, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { LICENSE_EDITION_LABELS, LICENSE_MESSAGES, type LicenseInfo } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { PageHeader } from '../../../components/page-header';
import { StatusTag } from '../../../components/status-tag';
import { formatDate, formatDateTime } from '../../../components/time';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { useLicense } from '../api/get-license';
import { useInstallLicense } from '../api/install-license';
import { useServerErrors } from '../../../lib/server-errors';

function LicenseStatusTag({ info }: { info: LicenseInfo }) {
  if (info.status === 'VALID') {
    return (
      <StatusTag tone="success" icon={<CheckCircleFilled />}>
        Valid
      </StatusTag>
    );
  }
  return (
    <StatusTag tone="error" icon={<ExclamationCircleFilled />}>
      {info.status === 'EXPIRED' ? 'Expired' : 'No license'}
    </StatusTag>
  );
}

function daysLeft(expiresAt: string): number {
  return Math.ceil((Date.parse(expiresAt) - Date.now()) / 86_400_000);
}

function CurrentLicense({ info }: { info: LicenseInfo }) {
  const left = info.expiresAt ? daysLeft(info.expiresAt) : undefined;
  return (
    <Card title="Installed license" extra={<LicenseStatusTag info={info} />}>
      {info.status === 'EXPIRED' && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title="The license has expired"
          description="Most of the console is locked until a valid license is installed. Install a new key on this page."
        />
      )}
      {left !== undefined && left > 0 && left <= 30 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={`The license expires in ${left} day${left === 1 ? '' : 's'}.`}
        />
      )}
      <Descriptions
        column={1}
        size="small"
        styles={{ label: { width: 160 } }}
        items={[
          {
            key: 'edition',
            label: 'Edition',
            children: info.status === 'EXPIRED' ? 'N/A' : LICENSE_EDITION_LABELS[info.edition],
          },
          { key: 'licensee', label: 'Licensed to', children: info.licensee ?? '—' },
          ...(info.count > 1
            ? [{ key: 'count', label: 'Licenses', children: `${info.count} (one per node, from a license bucket)` }]
            : []),
          { key: 'issued', label: 'Issued', children: info.issuedAt ? formatDate(info.issuedAt) : '—' },
          {
            key: 'expires',
            label: 'Expires',
            children: info.expiresAt ? formatDate(info.expiresAt) : info.id ? 'Never' : '—',
          },
          {
            key: 'id',
            label: 'License id',
            children: info.id ? <Typography.Text code>{info.id}</Typography.Text> : '—',
          },
          {
            key: 'issuer',
            label: 'Issuer key',
            children: info.issuer ? <Typography.Text code>{info.issuer}</Typography.Text> : '—',
          },
          {
            key: 'installed',
            label: 'Installed',
            children: info.installedAt
              ? `${formatDateTime(info.installedAt)} by ${info.installedBy ?? 'unknown'}`
              : '—',
          },
        ]}
      />
    </Card>
  );
}

/** The installed license, and a form to install another (paste the key or load a .json file). */
export function LicensesPage() {
  const license = useLicense();
  const install = useInstallLicense();
  const [keyText, setKeyText] = useState('');
  const [fileError, setFileError] = useState<string>();
  const { errors, clear, capture } = useServerErrors();
  const reset = () => {
    setKeyText('');
    clear();
    setFileError(undefined);
  };
  const unsaved = useUnsavedChanges({ initial: { key: '' }, current: { key: keyText.trim() }, onReset: reset });

  const onInstall = () => {
    clear();
    // a promise rather than mutate callbacks: those are skipped when the new license re-renders the shell
    install.mutateAsync(keyText).then(
      (info) => {
        notifySuccess(`${LICENSE_MESSAGES.installed} Edition: ${LICENSE_EDITION_LABELS[info.edition]}.`);
        reset();
      },
      (error: Error) => capture(error),
    );
  };

  const readFile = (file: File) => {
    setFileError(undefined);
    if (!file.name.toLowerCase().endsWith('.json')) {
      setFileError(LICENSE_MESSAGES.fileExtension);
      return false;
    }
    if (file.size > 13 * 1024 * 1024) {
      setFileError('File size should be less than 13 MB');
      return false;
    }
    void file.text().then(setKeyText);
    return false;
  };

  return (
    <>
      <PageHeader title="Licenses" description="The license decides which features this deployment offers." />
      <Row gutter={[20, 20]}>
        <Col xs={24} xl={12}>
          {license.data ? (
            <CurrentLicense info={license.data} />
          ) : (
            <Card loading={license.isPending}>{license.isError && 'The license could not be loaded.'}</Card>
          )}
        </Col>
        <Col xs={24} xl={12}>
          <Card title="Install a license">
            <Typography.Paragraph type="secondary">
              Paste the license key, or load the <Typography.Text code>.json</Typography.Text> file it came in. Keys are
              checked against the trusted issuers before anything changes. A key for this deployment is made with{' '}
              <Typography.Text code>npm run arca -- license issue</Typography.Text>.
            </Typography.Paragraph>
            <label htmlFor="license-key" style={{ display: 'block', fontWeight: 500, marginBottom: 6 }}>
              License key
            </label>
            <Input.TextArea
              id="license-key"
              value={keyText}
              onChange={(e) => setKeyText(e.target.value)}
              autoSize={{ minRows: 5, maxRows: 12 }}
              placeholder="ARCA-LICENSE-1.…"
              spellCheck={false}
              style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 12 }}
            />
            {fileError && <Alert type="error" showIcon title={fileError} style={{ marginTop: 12 }} />}
            <ErrorList messages={errors} style={{ marginTop: 12 }} />
            <Space style={{ marginTop: 16 }} wrap>
              <Button type="primary" onClick={onInstall} disabled={!keyText.trim()} loading={install.isPending}>
                Install
              </Button>
              <Upload accept=".json,application/json" showUploadList={false} beforeUpload={readFile} maxCount={1}>
                <Button icon={<UploadOutlined />}>Load .json file</Button>
              </Upload>
              <Button onClick={unsaved.requestReset} disabled={!keyText && errors.length === 0}>
                Reset
              </Button>
            </Space>
          </Card>
        </Col>
      </Row>
      {unsaved.dialog}
    </>
  );
}
