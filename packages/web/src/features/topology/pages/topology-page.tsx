import { ReloadOutlined } from '@ant-design/icons';
import {
  Button,
  Card,
  Col,
  Descriptions,
  Drawer,
  Empty,
  Form,
  Input,
  InputNumber,
  Row,
  Space,
  Statistic,
  Tag,
  Typography,
} from 'antd';
import { geoGraticule10, geoNaturalEarth1, geoPath } from 'd3-geo';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Bar, BarChart, ResponsiveContainer, Tooltip as ChartTooltip, XAxis, YAxis } from 'recharts';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology as TopoJson } from 'topojson-specification';
import landUrl from 'world-atlas/land-110m.json?url';
import type { Topology, TopologyLink, TopologyNode } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { formatBytes } from '../../../components/format';
import { LoadError } from '../../../components/load-error';
import { useServerErrors } from '../../../lib/server-errors';
import { PageHeader } from '../../../components/page-header';
import { StatusTag } from '../../../components/status-tag';
import { formatRelative } from '../../../components/time';
import { DeploymentStatusTag, UNITS } from '../../deployments';
import { useP2pUsage, useSetOwnLocation, useTopology } from '../api/topology';

const TOPOLOGY = '/admin/mission_control/topology';
const STATUS_COLOURS: Record<TopologyNode['status'], string> = {
  ONLINE: '#389e0d',
  PARTIAL: '#d48806',
  OFFLINE: '#cf1322',
  UNAUTHORIZED: '#cf1322',
  UNAVAILABLE: '#8c8c8c',
};
const LINK_COLOURS = { federation: '#0958d9', replication: '#722ed1' };
const WIDTH = 960;
const HEIGHT = 480;

/** The land outline (Natural Earth, 1:110m), fetched once with the page. */
function useLand() {
  const [land, setLand] = useState<GeoJSON.FeatureCollection | GeoJSON.Feature>();
  useEffect(() => {
    let live = true;
    void fetch(landUrl)
      .then((res) => res.json() as Promise<TopoJson<{ land: GeometryCollection }>>)
      .then((topo) => live && setLand(feature(topo, topo.objects.land)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return land;
}

function Markers() {
  return (
    <defs>
      {Object.entries(LINK_COLOURS).map(([kind, colour]) => (
        <marker
          key={kind}
          id={`arrow-${kind}`}
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M 0 0 L 10 5 L 0 10 z" fill={colour} />
        </marker>
      ))}
    </defs>
  );
}

/** Deployments by their location, links as great-circle arcs. */
function WorldMap({ data, onSelect }: { data: Topology; onSelect: (id: string) => void }) {
  const land = useLand();
  const projection = useMemo(() => geoNaturalEarth1().fitSize([WIDTH, HEIGHT], { type: 'Sphere' }), []);
  const path = geoPath(projection);
  const located = data.nodes.filter((n) => n.location.latitude !== null && n.location.longitude !== null);
  const at = new Map(located.map((n) => [n.id, [n.location.longitude!, n.location.latitude!] as [number, number]]));
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="group"
      aria-label="Deployments on a world map"
      style={{ width: '100%', height: 'auto' }}
    >
      <Markers />
      <path d={path({ type: 'Sphere' }) ?? ''} fill="#eef4fb" stroke="#c6d4e3" />
      <path d={path(geoGraticule10()) ?? ''} fill="none" stroke="#dbe5ef" strokeWidth={0.5} />
      {land && <path d={path(land) ?? ''} fill="#d9dee5" stroke="#b8c1cc" strokeWidth={0.5} />}
      {data.links.map((link, i) => {
        const from = at.get(link.from);
        const to = at.get(link.to);
        if (!from || !to) return null;
        return (
          <path
            key={i}
            d={path({ type: 'LineString', coordinates: [from, to] }) ?? ''}
            fill="none"
            stroke={LINK_COLOURS[link.kind]}
            strokeWidth={1.5}
            strokeDasharray={link.kind === 'federation' ? '5 4' : undefined}
            markerEnd={`url(#arrow-${link.kind})`}
          />
        );
      })}
      {located.map((node) => {
        const [x, y] = projection(at.get(node.id)!) ?? [0, 0];
        return (
          <g
            key={node.id}
            transform={`translate(${x},${y})`}
            role="button"
            tabIndex={0}
            aria-label={`${node.name}: ${node.status}`}
            onClick={() => onSelect(node.id)}
            onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onSelect(node.id)}
            style={{ cursor: 'pointer' }}
          >
            <circle r={7} fill={STATUS_COLOURS[node.status]} stroke="#fff" strokeWidth={2} />
            <text
              y={-12}
              textAnchor="middle"
              fontSize={12}
              fontWeight={600}
              fill="#1f1f1f"
              paintOrder="stroke"
              stroke="#fff"
              strokeWidth={3}
            >
              {node.name}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** Every deployment on a circle, federation and replication links between them. */
function LinkGraph({ data, onSelect }: { data: Topology; onSelect: (id: string) => void }) {
  const size = 420;
  const radius = data.nodes.length > 1 ? 150 : 0;
  const place = new Map(
    data.nodes.map((n, i) => {
      const angle = (2 * Math.PI * i) / data.nodes.length - Math.PI / 2;
      return [n.id, { x: size / 2 + radius * Math.cos(angle), y: size / 2 + radius * Math.sin(angle) }];
    }),
  );
  // a pair linked both ways (a mesh) is drawn as two gentle curves
  const curve = (link: TopologyLink, index: number) => {
    const a = place.get(link.from);
    const b = place.get(link.to);
    if (!a || !b) return '';
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const length = Math.hypot(dx, dy) || 1;
    const shrink = 24 / length;
    const [sx, sy, ex, ey] = [a.x + dx * shrink, a.y + dy * shrink, b.x - dx * shrink, b.y - dy * shrink];
    const bend = (link.kind === 'replication' ? 30 : 14) + (index % 2) * 4;
    const mx = (sx + ex) / 2 - (dy / length) * bend;
    const my = (sy + ey) / 2 + (dx / length) * bend;
    return `M ${sx} ${sy} Q ${mx} ${my} ${ex} ${ey}`;
  };
  return (
    <svg
      viewBox={`0 0 ${size} ${size}`}
      role="group"
      aria-label="Federation and replication links"
      style={{ width: '100%', maxWidth: 520, height: 'auto' }}
    >
      <Markers />
      {data.links.map((link, i) => (
        <path
          key={i}
          d={curve(link, i)}
          fill="none"
          stroke={link.kind === 'replication' && link.status === 'failed' ? '#cf1322' : LINK_COLOURS[link.kind]}
          strokeWidth={1.6}
          strokeDasharray={link.kind === 'federation' ? '5 4' : undefined}
          markerEnd={`url(#arrow-${link.kind})`}
        >
          <title>{`${link.kind === 'federation' ? 'Federation' : 'Replication'}: ${link.label}${link.status ? ` (${link.status})` : ''}`}</title>
        </path>
      ))}
      {data.nodes.map((node) => {
        const p = place.get(node.id)!;
        return (
          <g
            key={node.id}
            transform={`translate(${p.x},${p.y})`}
            role="button"
            tabIndex={0}
            aria-label={`${node.name}: ${node.status}`}
            onClick={() => onSelect(node.id)}
            onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onSelect(node.id)}
            style={{ cursor: 'pointer' }}
          >
            <circle r={20} fill="#fff" stroke={STATUS_COLOURS[node.status]} strokeWidth={3} />
            <text textAnchor="middle" dy={5} fontSize={12} fontWeight={700} fill={STATUS_COLOURS[node.status]}>
              {node.self ? 'MC' : node.name.slice(0, 2).toUpperCase()}
            </text>
            <text textAnchor="middle" y={p.y < size / 2 - 1 ? -28 : 36} fontSize={12} fill="#1f1f1f">
              {node.name}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** This deployment's location, which the map needs to draw it. */
function OwnLocation({ node }: { node: TopologyNode }) {
  const [form] = Form.useForm<TopologyNode['location']>();
  const save = useSetOwnLocation();
  const { errors, clear, capture } = useServerErrors('The location could not be saved');
  return (
    <Card size="small" title="Location of this deployment">
      <ErrorList messages={errors} style={{ marginBottom: 12 }} />
      <Form
        form={form}
        layout="vertical"
        initialValues={node.location}
        onFinish={(values) => {
          clear();
          save.mutate(
            { city: values.city ?? '', latitude: values.latitude ?? null, longitude: values.longitude ?? null },
            { onSuccess: () => notifySuccess('The location was saved.'), onError: (error) => capture(error, form) },
          );
        }}
      >
        <Form.Item name="city" label="City">
          <Input />
        </Form.Item>
        <Space>
          <Form.Item name="latitude" label="Latitude">
            <InputNumber min={-90} max={90} step={0.01} />
          </Form.Item>
          <Form.Item name="longitude" label="Longitude">
            <InputNumber min={-180} max={180} step={0.01} />
          </Form.Item>
        </Space>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          Save location
        </Button>
      </Form>
    </Card>
  );
}

function Details({ node, data }: { node: TopologyNode; data: Topology }) {
  const names = new Map(data.nodes.map((n) => [n.id, n.name]));
  const links = data.links.filter((l) => l.from === node.id || l.to === node.id);
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="Status">
          <Space direction="vertical" size={0}>
            <DeploymentStatusTag status={node.status} />
            {node.status_details && <Typography.Text type="secondary">{node.status_details}</Typography.Text>}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label="URL">{node.url}</Descriptions.Item>
        <Descriptions.Item label="Version">{node.version || '—'}</Descriptions.Item>
        <Descriptions.Item label="Services">
          {node.services.length
            ? node.services.map((s) => (
                <StatusTag key={s.name} tone={s.status === 'ONLINE' ? 'success' : 'error'}>
                  {s.name}
                </StatusTag>
              ))
            : '—'}
        </Descriptions.Item>
        <Descriptions.Item label="Location">
          {node.location.city ||
            (node.location.latitude !== null ? `${node.location.latitude}, ${node.location.longitude}` : '—')}
        </Descriptions.Item>
        <Descriptions.Item label="Tags">
          {node.tags.length ? node.tags.map((t) => <Tag key={t}>{t}</Tag>) : '—'}
        </Descriptions.Item>
        <Descriptions.Item label="Storage">
          {node.storage ? (
            <Space direction="vertical" size={0}>
              <span>{`${node.storage.artifacts_count} artifacts, ${node.storage.artifacts_size} (${node.storage.binaries_size} stored)`}</span>
              <span>{`${node.storage.repositories} repositories`}</span>
              <Typography.Text type="secondary">{`Disk: ${node.storage.used_space} used, ${node.storage.free_space} free`}</Typography.Text>
            </Space>
          ) : (
            'Not available'
          )}
        </Descriptions.Item>
      </Descriptions>
      <div>
        <Typography.Title level={5}>Links</Typography.Title>
        {links.length ? (
          links.map((l, i) => (
            <div key={i}>
              <Tag color={l.kind === 'federation' ? 'blue' : 'purple'}>{l.kind}</Tag>
              {`${names.get(l.from)} → ${names.get(l.to)}: ${l.label}`}
              {l.status && ` (${l.status})`}
            </div>
          ))
        ) : (
          <Typography.Text type="secondary">No federation or replication involves this deployment.</Typography.Text>
        )}
      </div>
      {node.self ? <OwnLocation node={node} /> : <Link to={`${UNITS}/${node.id}`}>Edit this deployment</Link>}
    </Space>
  );
}

/** The top 5 deployments by the bytes replications moved to or from them this week. */
function TrafficCard() {
  const usage = useP2pUsage();
  const top = usage.data?.top ?? [];
  return (
    <Card title="Top 5 by replication traffic (last week)" size="small" style={{ marginTop: 16 }}>
      {usage.isError ? (
        <LoadError what="The traffic" error={usage.error} onRetry={() => void usage.refetch()} />
      ) : top.length ? (
        <div style={{ height: 40 + top.length * 36 }} aria-label="Bytes replicated per deployment" role="img">
          <ResponsiveContainer>
            <BarChart data={top} layout="vertical" margin={{ left: 24, right: 24 }}>
              <XAxis type="number" tickFormatter={(v: number) => formatBytes(v)} />
              <YAxis type="category" dataKey="name" width={140} />
              <ChartTooltip formatter={(v) => formatBytes(Number(v))} />
              <Bar dataKey="bytes" name="Bytes" fill="#722ed1" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      ) : (
        <Empty description="No replication moved anything this week. Replications are set up under Replications." />
      )}
    </Card>
  );
}

/** Topology (`/admin/mission_control/topology/:id?`): the fleet on a map and as a graph, with a drill-down per deployment. */
export function TopologyPage() {
  const topology = useTopology();
  const { id } = useParams();
  const navigate = useNavigate();
  const data = topology.data;
  const select = (next: string) => navigate(`${TOPOLOGY}/${encodeURIComponent(next)}`);
  const selected = data?.nodes.find((n) => n.id === id);
  const unlocated = data?.nodes.filter((n) => n.location.latitude === null || n.location.longitude === null) ?? [];
  return (
    <>
      <PageHeader
        title="Topology"
        description="The deployments this one manages, where they are, how they are doing, and how access federation and replications join them."
        extra={
          <Space>
            {data && <Typography.Text type="secondary">{`Checked ${formatRelative(data.checked_at)}`}</Typography.Text>}
            <Button icon={<ReloadOutlined />} loading={topology.isFetching} onClick={() => void topology.refetch()}>
              Refresh
            </Button>
          </Space>
        }
      />
      {topology.isError && (
        <LoadError
          what="Unable to fetch Storage, Replication, or Federation data"
          error={topology.error}
          onRetry={() => void topology.refetch()}
        />
      )}
      {topology.isPending && <Card loading />}
      {data && (
        <>
          <Row gutter={16} style={{ marginBottom: 16 }}>
            <Col span={6}>
              <Card size="small">
                <Statistic title="Deployments" value={data.nodes.length} />
              </Card>
            </Col>
            <Col span={6}>
              <Card size="small">
                <Statistic
                  title="Online"
                  value={data.nodes.filter((n) => n.status === 'ONLINE').length}
                  suffix={`/ ${data.nodes.length}`}
                />
              </Card>
            </Col>
            <Col span={6}>
              <Card size="small">
                <Statistic title="Federation links" value={data.links.filter((l) => l.kind === 'federation').length} />
              </Card>
            </Col>
            <Col span={6}>
              <Card size="small">
                <Statistic title="Replications" value={data.links.filter((l) => l.kind === 'replication').length} />
              </Card>
            </Col>
          </Row>
          {data.nodes.length === 1 && (
            <Card style={{ marginBottom: 16 }}>
              <Empty description="Only this deployment so far. Add deployments under Platform Deployments to see the fleet here.">
                <Button type="primary" onClick={() => navigate(`${UNITS}/add`)}>
                  Add Deployment
                </Button>
              </Empty>
            </Card>
          )}
          <Row gutter={16}>
            <Col xs={24} xl={15}>
              <Card title="Map" size="small">
                <WorldMap data={data} onSelect={select} />
                {unlocated.length > 0 && (
                  <Typography.Text type="secondary">
                    {`Not on the map (no location): ${unlocated.map((n) => n.name).join(', ')}. Set a location on a deployment’s edit page (this deployment’s: click it).`}
                  </Typography.Text>
                )}
              </Card>
            </Col>
            <Col xs={24} xl={9}>
              <Card
                title="Links"
                size="small"
                extra={
                  <Space size="small">
                    <Typography.Text style={{ color: LINK_COLOURS.federation }}>- - federation</Typography.Text>
                    <Typography.Text style={{ color: LINK_COLOURS.replication }}>— replication</Typography.Text>
                  </Space>
                }
              >
                <div style={{ display: 'flex', justifyContent: 'center' }}>
                  <LinkGraph data={data} onSelect={select} />
                </div>
              </Card>
            </Col>
          </Row>
          <TrafficCard />
        </>
      )}
      <Drawer
        open={Boolean(selected)}
        width={480}
        title={selected?.name ?? 'Deployment'}
        destroyOnHidden
        onClose={() => navigate(TOPOLOGY)}
      >
        {selected && data && <Details node={selected} data={data} />}
      </Drawer>
    </>
  );
}
