import { InboxOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Radio, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { LICENSE_BUCKET_FILE_MAX_BYTES, LICENSE_BUCKET_MESSAGES, type LicenseBucketAdd } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { PageHeader } from '../../../components/page-header';
import { useServerErrors } from '../../../lib/server-errors';
import { useBucketActions } from '../api/license-buckets';
import { bucketNameRules } from '../components/rules';
import { BUCKETS_PATH } from './license-buckets-page';
import { REQUIRED_TEXT } from '../../../lib/schema-rules';

type Source = 'file' | 'url' | 'signed_url' | 'key';

interface Values {
  name: string;
  source: Source;
  url?: string;
  signed_url?: string;
  key?: string;
}

const mandatory = [REQUIRED_TEXT];

/** Add New Bucket: a name and the bucket as a file, a URL, a signed URL or its key. */
export function AddLicenseBucketPage() {
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const { add } = useBucketActions();
  const { errors, clear, capture } = useServerErrors();
  const source = Form.useWatch('source', form) ?? 'file';
  const [file, setFile] = useState<{ name: string; content: string }>();
  const [fileError, setFileError] = useState<string>();

  const readFile = (chosen: File) => {
    setFile(undefined);
    setFileError(undefined);
    if (!chosen.name.toLowerCase().endsWith('.json')) setFileError(LICENSE_BUCKET_MESSAGES.fileExtension);
    else if (chosen.size >= LICENSE_BUCKET_FILE_MAX_BYTES) setFileError(LICENSE_BUCKET_MESSAGES.fileSize);
    else void chosen.text().then((content) => setFile({ name: chosen.name, content }));
    return false;
  };

  const submit = (values: Values) => {
    clear();
    if (values.source === 'file' && !file) {
      setFileError(fileError ?? LICENSE_BUCKET_MESSAGES.mandatory);
      return;
    }
    const body: LicenseBucketAdd = {
      name: values.name.trim(),
      ...(values.source === 'file' ? { file } : {}),
      ...(values.source === 'url' ? { url: values.url } : {}),
      ...(values.source === 'signed_url' ? { signed_url: values.signed_url } : {}),
      ...(values.source === 'key' ? { key: values.key } : {}),
    };
    add.mutateAsync(body).then(
      () => {
        notifySuccess(LICENSE_BUCKET_MESSAGES.added);
        void navigate(BUCKETS_PATH);
      },
      (error: unknown) => capture(error, form),
    );
  };

  return (
    <>
      <PageHeader
        title="Add New Bucket"
        description="The bucket is checked against the trusted issuers (ARCA_LICENSE_ISSUER_KEYS) before it is kept."
      />
      <Card style={{ maxWidth: 760 }}>
        <ErrorList messages={errors} />
        <Form<Values> form={form} layout="vertical" initialValues={{ source: 'file' }} onFinish={submit}>
          <Form.Item name="name" label="Bucket Name" rules={bucketNameRules}>
            <Input autoFocus placeholder="e.g. fleet-2027" />
          </Form.Item>
          <Form.Item name="source" label="Bucket source">
            <Radio.Group
              optionType="button"
              options={[
                { value: 'file', label: 'File' },
                { value: 'url', label: 'URL' },
                { value: 'signed_url', label: 'Signed URL' },
                { value: 'key', label: 'Key' },
              ]}
            />
          </Form.Item>
          {source === 'file' && (
            <Form.Item
              label="Bucket file"
              required
              validateStatus={fileError ? 'error' : undefined}
              help={fileError ?? 'A .json file smaller than 13 MB.'}
            >
              <Upload.Dragger
                accept=".json"
                maxCount={1}
                beforeUpload={readFile}
                onRemove={() => setFile(undefined)}
                fileList={file ? [{ uid: 'bucket', name: file.name, status: 'done' }] : []}
              >
                <p className="ant-upload-drag-icon">
                  <InboxOutlined />
                </p>
                <Typography.Paragraph>Drop the bucket file here, or click to choose it</Typography.Paragraph>
              </Upload.Dragger>
            </Form.Item>
          )}
          {source === 'url' && (
            <Form.Item name="url" label="Bucket URL" rules={mandatory} extra="Fetched once by this deployment.">
              <Input placeholder="https://licenses.example.com/fleet-2027.json" />
            </Form.Item>
          )}
          {source === 'signed_url' && (
            <Form.Item
              name="signed_url"
              label="Signed URL"
              rules={mandatory}
              extra="A pre-signed address (its signature in the query), fetched once and not kept."
            >
              <Input placeholder="https://bucket.s3.example.com/fleet-2027.json?X-Amz-Signature=…" />
            </Form.Item>
          )}
          {source === 'key' && (
            <Form.Item name="key" label="Bucket key" rules={mandatory}>
              <Input.TextArea rows={6} placeholder="ARCA-BUCKET-1.…" style={{ fontFamily: 'monospace' }} />
            </Form.Item>
          )}
          <Space>
            <Button type="primary" htmlType="submit" loading={add.isPending}>
              Add Bucket
            </Button>
            <Button onClick={() => void navigate(BUCKETS_PATH)}>Cancel</Button>
          </Space>
        </Form>
      </Card>
    </>
  );
}
