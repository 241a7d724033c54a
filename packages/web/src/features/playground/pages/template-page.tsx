import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Form, Input, Row, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { FormActions } from '../../../components/form-actions';
import { ListToolbar } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { StatusTag } from '../../../components/status-tag';

import { REQUIRED } from '../../../lib/schema-rules';

/**
 * The page template (`/template`): the parts every console page is built of, in their places —
 * header with its action, a list with its toolbar and empty state, a form with its buttons —
 * for those who add pages to the console. Reached only with the tested-feature flag.
 */
export function TemplatePage() {
  const [query, setQuery] = useState('');
  return (
    <>
      <PageHeader
        title="Page template"
        description="A page starts with its title, what it is for, and its main action on the right."
        extra={
          <Button type="primary" icon={<PlusOutlined />}>
            New Thing
          </Button>
        }
      />
      <Row gutter={20}>
        <Col xs={24} xl={14}>
          <Card title="A list" style={{ marginBottom: 20 }}>
            <ListToolbar
              query={query}
              onQuery={setQuery}
              placeholder="Filter by name"
              label="Filter things"
              width={260}
            />
            <Table
              rowKey="name"
              dataSource={[]}
              columns={[
                { title: 'Name', dataIndex: 'name' },
                { title: 'State', dataIndex: 'state' },
              ]}
              locale={{ emptyText: <Empty description="No things yet. Create one to see it here." /> }}
            />
          </Card>
          <Card title="States">
            <Space wrap>
              <StatusTag tone="success">Online</StatusTag>
              <StatusTag tone="info">Running</StatusTag>
              <StatusTag tone="warning">Partial</StatusTag>
              <StatusTag tone="error">Failed</StatusTag>
              <StatusTag tone="neutral">Stopped</StatusTag>
            </Space>
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card title="A form">
            <Form layout="vertical">
              <Form.Item label="Name" name="name" rules={[REQUIRED]}>
                <Input />
              </Form.Item>
              <Form.Item label="Description" name="description">
                <Input.TextArea rows={3} />
              </Form.Item>
              <Typography.Paragraph type="secondary">Cancel, Reset, then the primary action last.</Typography.Paragraph>
              <FormActions
                primary="Save"
                busy={false}
                onCancel={() => undefined}
                onReset={() => undefined}
                resetDisabled
              />
            </Form>
          </Card>
        </Col>
      </Row>
    </>
  );
}
