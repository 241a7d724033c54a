import { ApiOutlined, BookOutlined, LinkOutlined, ReadOutlined } from '@ant-design/icons';
import { Card, Col, Empty, Flex, List, Menu, Row, Skeleton, Tag, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { Readme } from '../../packages';
import { useGuide, useGuides } from '../api/guides';

/** The official documentation of the clients Arca serves. */
const CLIENT_DOCS: { name: string; url: string; about: string }[] = [
  {
    name: 'npm',
    url: 'https://docs.npmjs.com/cli/configuring-npm/npmrc',
    about: '.npmrc: registries, scopes and tokens',
  },
  { name: 'pip', url: 'https://pip.pypa.io/en/stable/topics/configuration/', about: 'pip.conf and index-url' },
  { name: 'twine', url: 'https://twine.readthedocs.io/en/stable/', about: 'Uploading Python distributions' },
  {
    name: 'Maven',
    url: 'https://maven.apache.org/settings.html',
    about: 'settings.xml: mirrors, servers, credentials',
  },
  {
    name: 'Gradle',
    url: 'https://docs.gradle.org/current/userguide/declaring_repositories.html',
    about: 'Declaring repositories',
  },
  { name: 'Docker', url: 'https://docs.docker.com/reference/cli/docker/login/', about: 'docker login and registries' },
  { name: 'Helm', url: 'https://helm.sh/docs/helm/helm_repo_add/', about: 'helm repo add' },
  { name: 'Go', url: 'https://go.dev/ref/mod#goproxy-protocol', about: 'The GOPROXY protocol' },
  { name: 'Cargo', url: 'https://doc.rust-lang.org/cargo/reference/registries.html', about: 'Alternate registries' },
  { name: 'RubyGems', url: 'https://guides.rubygems.org/command-reference/#gem-sources', about: 'gem sources' },
  {
    name: 'APT',
    url: 'https://manpages.debian.org/bookworm/apt/sources.list.5.en.html',
    about: 'sources.list and signed-by',
  },
  { name: 'DNF', url: 'https://dnf.readthedocs.io/en/latest/conf_ref.html', about: 'Repository configuration' },
];

/**
 * The Education Center: the guides this deployment serves (read in the console), its API
 * reference, and the documentation of every client it speaks to.
 */
export function EducationCenterPage() {
  const guides = useGuides();
  const [params, setParams] = useSearchParams();
  const available = (guides.data ?? []).filter((g) => g.available);
  const selected = params.get('guide') ?? available[0]?.id;
  const guide = useGuide(available.length ? selected : undefined);
  return (
    <>
      <PageHeader
        title="Education Center"
        description="Guides to set up, use and run Arca, its API reference, and the documentation of the clients it serves."
      />
      <Row gutter={20}>
        <Col xs={24} xl={17}>
          <Card
            title={
              <Flex gap={8} align="center">
                <ReadOutlined /> Guides
              </Flex>
            }
            style={{ marginBottom: 20 }}
          >
            {guides.isError ? (
              <LoadError what="The guides" error={guides.error} onRetry={() => void guides.refetch()} />
            ) : guides.isPending ? (
              <Skeleton active />
            ) : !available.length ? (
              <Empty description="No guide is installed with this deployment. They are part of Arca's source distribution." />
            ) : (
              <Row gutter={16}>
                <Col xs={24} md={8}>
                  <Menu
                    aria-label="Guides"
                    mode="inline"
                    inlineIndent={8}
                    selectedKeys={selected ? [selected] : []}
                    onClick={({ key }) => setParams({ guide: key })}
                    items={available.map((g) => ({ key: g.id, icon: <BookOutlined />, label: g.title }))}
                    style={{ borderInlineEnd: 'none' }}
                  />
                  <Typography.Paragraph type="secondary" style={{ marginTop: 12, fontSize: 12 }}>
                    {available.find((g) => g.id === selected)?.summary}
                  </Typography.Paragraph>
                </Col>
                <Col xs={24} md={16}>
                  {guide.isPending ? (
                    <Skeleton active />
                  ) : guide.isError ? (
                    <LoadError what="The guide" error={guide.error} onRetry={() => void guide.refetch()} />
                  ) : (
                    <div style={{ maxHeight: 720, overflow: 'auto' }} tabIndex={0} aria-label={guide.data.title}>
                      <Readme text={guide.data.markdown} />
                    </div>
                  )}
                </Col>
              </Row>
            )}
          </Card>
        </Col>
        <Col xs={24} xl={7}>
          <Card
            title={
              <Flex gap={8} align="center">
                <ApiOutlined /> API reference
              </Flex>
            }
            style={{ marginBottom: 20 }}
          >
            <Typography.Paragraph>
              Every call of this deployment, in OpenAPI 3:{' '}
              <Typography.Link href="/api/openapi.json" target="_blank" underline>
                /api/openapi.json
              </Typography.Link>
              . Import it into Postman, Insomnia or a client generator.
            </Typography.Paragraph>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              Scripts written for Artifactory's REST API work here: the calls keep their shapes.
            </Typography.Paragraph>
          </Card>
          <Card
            title={
              <Flex gap={8} align="center">
                <LinkOutlined /> Client documentation
              </Flex>
            }
          >
            <List
              size="small"
              dataSource={CLIENT_DOCS}
              renderItem={(doc) => (
                <List.Item>
                  <div>
                    <Typography.Link href={doc.url} target="_blank" rel="noopener noreferrer" underline>
                      {doc.name}
                    </Typography.Link>{' '}
                    <Tag bordered={false}>official</Tag>
                    <br />
                    <Typography.Text type="secondary">{doc.about}</Typography.Text>
                  </div>
                </List.Item>
              )}
            />
          </Card>
        </Col>
      </Row>
    </>
  );
}
