import { CloudDownloadOutlined, InboxOutlined, PlusOutlined, SyncOutlined } from '@ant-design/icons';
import { Button, Form, Input, InputNumber, Modal, Progress, Space, Switch, Tooltip, Typography, Upload } from 'antd';
import { useState } from 'react';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { FormModal } from '../../../components/form-modal';
import { QueryTable } from '../../../components/query-table';
import { RowActions } from '../../../components/row-actions';
import { StatusTag, type Tone } from '../../../components/status-tag';
import { formatDateTime, formatRelative } from '../../../components/time';
import {
  useAdvisorySources,
  useDeleteAdvisorySource,
  useImportAdvisories,
  useRunAdvisorySource,
  useSaveAdvisorySource,
  type AdvisoryImport,
  type AdvisorySourceAnswer,
} from '../api/scanning';
import { SecurityFrame } from './security-page';

const OUTCOME_TONES: Record<string, Tone> = { imported: 'success', unchanged: 'info', failed: 'error' };

/** What an import counted, in words. */
const counted = (c: AdvisoryImport) =>
  `${c.records.toLocaleString()} ${c.records === 1 ? 'record' : 'records'}: ${c.added.toLocaleString()} added, ${c.updated.toLocaleString()} updated, ${c.unchanged.toLocaleString()} unchanged.`;

interface SourceForm {
  name: string;
  url: string;
  interval_hours: number;
  enabled: boolean;
}

/** Imports an OSV export file, with a progress bar while it uploads. */
function ImportModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const upload = useImportAdvisories();
  const [progress, setProgress] = useState<number | undefined>();
  const [result, setResult] = useState<string | undefined>();
  const close = () => {
    setProgress(undefined);
    setResult(undefined);
    onClose();
  };
  const send = (file: File) => {
    setResult(undefined);
    setProgress(0);
    void runSafely(async () => {
      try {
        const counts = await upload.mutateAsync({ file, onProgress: setProgress });
        setResult(`${file.name}: ${counted(counts)} Every version is matched against them now.`);
        notifySuccess(`Advisories of ${file.name} imported`);
      } finally {
        setProgress(undefined);
      }
    });
    return false;
  };
  return (
    <Modal open={open} title="Import advisories" onCancel={close} footer={<Button onClick={close}>Close</Button>}>
      <Typography.Paragraph type="secondary">
        An OSV export (a zip of records, as osv.dev publishes one per ecosystem), or a JSON file of one record or a
        list. A bad record refuses the whole file, naming it.
      </Typography.Paragraph>
      <Upload.Dragger
        accept=".zip,.json"
        showUploadList={false}
        beforeUpload={send}
        disabled={progress !== undefined}
        aria-label="OSV export to import"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p>Drop an OSV export here, or click to choose it</p>
      </Upload.Dragger>
      {progress !== undefined && (
        <Progress percent={Math.round(progress * 100)} status="active" aria-label="Import progress" />
      )}
      {result && (
        <Typography.Paragraph role="status" style={{ marginTop: 12 }}>
          {result}
        </Typography.Paragraph>
      )}
    </Modal>
  );
}

/**
 * Advisories (`/admin/security/advisories`): the URLs of OSV exports fetched every so many hours,
 * with how each last fetch went, fetched now on request, and an export imported from a file.
 */
export function AdvisoriesPage() {
  const sources = useAdvisorySources();
  const save = useSaveAdvisorySource();
  const remove = useDeleteAdvisorySource();
  const run = useRunAdvisorySource();
  const [form] = Form.useForm<SourceForm>();
  const [editing, setEditing] = useState<AdvisorySourceAnswer | 'new' | undefined>();
  const [importing, setImporting] = useState(false);
  const [running, setRunning] = useState<string | undefined>();
  const existing = editing !== undefined && editing !== 'new' ? editing : undefined;

  const open = (row: AdvisorySourceAnswer | 'new') => {
    setEditing(row);
    form.setFieldsValue(
      row === 'new'
        ? { name: '', url: '', interval_hours: 24, enabled: true }
        : { name: row.name, url: row.url, interval_hours: row.interval_hours, enabled: row.enabled },
    );
  };
  const submit = async (values: SourceForm) => {
    await save.mutateAsync({
      body: { ...values, name: existing?.name ?? values.name.trim(), url: values.url.trim() },
      ...(existing ? { existing: existing.name } : {}),
    });
    notifySuccess(`Advisory source ${existing?.name ?? values.name} ${existing ? 'saved' : 'added'}`);
  };
  const fetchNow = (name: string) => {
    setRunning(name);
    void runSafely(async () => {
      try {
        const answer = await run.mutateAsync(name);
        if (answer.last_outcome === 'failed') throw new Error(answer.last_message);
        notifySuccess(`${name}: ${answer.last_message}`);
      } finally {
        setRunning(undefined);
      }
    });
  };

  return (
    <SecurityFrame
      action={
        <Space>
          <Button icon={<CloudDownloadOutlined />} onClick={() => setImporting(true)}>
            Import File
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')}>
            New Source
          </Button>
        </Space>
      }
    >
      <QueryTable<AdvisorySourceAnswer>
        rowKey="name"
        query={sources}
        rows={sources.data ?? []}
        noun={['advisory source', 'advisory sources']}
        emptyText="No advisory source. Add the URL of an OSV export (osv.dev publishes one per ecosystem, such as https://osv-vulnerabilities.storage.googleapis.com/npm/all.zip) to fetch it every day, or import an export file."
        columns={[
          {
            title: 'Name',
            dataIndex: 'name',
            render: (name: string, row) => (
              <Space orientation="vertical" size={0}>
                <Typography.Text strong>{name}</Typography.Text>
                <Typography.Text type="secondary" className="arca-ellipsis" title={row.url}>
                  {row.url}
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: 'Fetched',
            key: 'interval',
            width: 150,
            render: (_: unknown, row) =>
              row.enabled ? `Every ${row.interval_hours === 1 ? 'hour' : `${row.interval_hours} hours`}` : 'Paused',
          },
          {
            title: 'Last fetch',
            key: 'last',
            render: (_: unknown, row) =>
              row.last_run ? (
                <Space orientation="vertical" size={0}>
                  <Space size={6}>
                    <StatusTag tone={OUTCOME_TONES[row.last_outcome ?? ''] ?? 'neutral'}>{row.last_outcome}</StatusTag>
                    <span title={formatDateTime(row.last_run)}>{formatRelative(row.last_run)}</span>
                  </Space>
                  <Typography.Text type="secondary">{row.last_message}</Typography.Text>
                </Space>
              ) : (
                <Typography.Text type="secondary">Not fetched yet</Typography.Text>
              ),
          },
          {
            title: '',
            key: 'actions',
            width: 150,
            render: (_: unknown, row) => (
              <RowActions
                what={`advisory source ${row.name}`}
                onEdit={() => open(row)}
                remove={{
                  run: () => remove.mutateAsync(row.name),
                  consequence: 'It is no longer fetched; the advisories it imported stay.',
                  deleted: `Advisory source ${row.name} removed`,
                }}
              >
                <Tooltip title="Fetch now">
                  <Button
                    type="text"
                    icon={<SyncOutlined spin={running === row.name} />}
                    aria-label={`Fetch ${row.name} now`}
                    disabled={running !== undefined}
                    onClick={() => fetchNow(row.name)}
                  />
                </Tooltip>
              </RowActions>
            ),
          },
        ]}
      />
      <FormModal<SourceForm>
        open={editing !== undefined}
        title={existing ? `Edit ${existing.name}` : 'New Advisory Source'}
        okText={existing ? 'Save' : 'Add'}
        form={form}
        onSubmit={submit}
        onClose={() => setEditing(undefined)}
        failureText="The advisory source could not be saved."
        width={560}
      >
        <Form.Item name="name" label="Name" rules={[{ required: true, message: 'A source needs a name.' }]}>
          <Input placeholder="osv-npm" disabled={Boolean(existing)} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="url"
          label="URL"
          extra="An OSV export (a zip of records) or a JSON list of records, fetched through the outbound proxy."
          rules={[{ required: true, message: 'A source needs a URL.' }]}
        >
          <Input placeholder="https://osv-vulnerabilities.storage.googleapis.com/npm/all.zip" />
        </Form.Item>
        <Form.Item name="interval_hours" label="Fetch every (hours)">
          <InputNumber min={1} max={720} />
        </Form.Item>
        <Form.Item name="enabled" label="Fetched on schedule" valuePropName="checked">
          <Switch />
        </Form.Item>
      </FormModal>
      <ImportModal open={importing} onClose={() => setImporting(false)} />
    </SecurityFrame>
  );
}
