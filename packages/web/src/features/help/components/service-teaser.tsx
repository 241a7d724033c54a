import { CheckOutlined } from '@ant-design/icons';
import { Button, Card, Col, Flex, List, Row, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/page-header';

export interface TeaserProps {
  title: string;
  icon: ReactNode;
  /** What the service does, in one paragraph. */
  summary: string;
  /** What it would bring, one line each. */
  brings: string[];
  /** What Arca itself offers meanwhile: label, text and where. */
  meanwhile: { label: string; text: string; to: string }[];
}

/** A service Arca does not run: what it is, and what Arca offers in its place. */
export function ServiceTeaser({ title, icon, summary, brings, meanwhile }: TeaserProps) {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title={title} description="This service is not part of this deployment." />
      <Row gutter={20}>
        <Col xs={24} xl={14}>
          <Card style={{ marginBottom: 20 }}>
            <Flex gap={20} align="flex-start">
              <div style={{ fontSize: 40, color: '#1f4fd1' }} aria-hidden="true">
                {icon}
              </div>
              <div>
                <Typography.Paragraph style={{ fontSize: 15 }}>{summary}</Typography.Paragraph>
                <List
                  dataSource={brings}
                  split={false}
                  renderItem={(line) => (
                    <List.Item style={{ padding: '4px 0' }}>
                      <Flex gap={8}>
                        <CheckOutlined style={{ color: '#1a7f37', marginTop: 4 }} aria-hidden="true" />
                        <Typography.Text>{line}</Typography.Text>
                      </Flex>
                    </List.Item>
                  )}
                />
                <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
                  It appears here, in the menu and in search, once a deployment runs it.
                </Typography.Paragraph>
              </div>
            </Flex>
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card title="Meanwhile, in Arca">
            <List
              dataSource={meanwhile}
              renderItem={(item) => (
                <List.Item
                  actions={[
                    <Button key="open" onClick={() => navigate(item.to)}>
                      Open
                    </Button>,
                  ]}
                >
                  <List.Item.Meta title={item.label} description={item.text} />
                </List.Item>
              )}
            />
          </Card>
        </Col>
      </Row>
    </>
  );
}
