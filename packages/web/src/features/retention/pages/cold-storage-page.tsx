import { Card, Col, Empty, Row, Segmented, Statistic, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { BinariesSummary } from '@arca/contracts';
import { formatBytes } from '../../../components/format';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { useStorageInfo } from '../api/retention';

const DAY_MS = 86_400_000;
/** Spec part 2 §9: the last month unless another range is chosen. */
const RANGES = [
  { value: 7, label: 'Week' },
  { value: 30, label: 'Month' },
  { value: 90, label: 'Quarter' },
  { value: 365, label: 'Year' },
];

const noun = (count: number, singular: string, pluralForm = `${singular}s`) => (count === 1 ? singular : pluralForm);

/** Spec part 1 §2: the tiles, each with its singular and plural label. */
function tiles(summary: BinariesSummary) {
  return [
    { title: 'Binaries size', value: formatBytes(summary.binariesSize), note: 'in the cold store, each content once' },
    { title: 'Artifacts size', value: formatBytes(summary.artifactsSize), note: 'of the archived artifacts' },
    { title: 'Optimization', value: `${summary.optimization}%`, note: 'saved by storing identical contents once' },
    {
      title: noun(summary.binariesCount, 'Binary', 'Binaries'),
      value: summary.binariesCount.toLocaleString(),
      note: 'contents in the cold store',
    },
    {
      title: noun(summary.artifactsCount, 'Artifact'),
      value: summary.artifactsCount.toLocaleString(),
      note: 'in the archive',
    },
    {
      title: noun(summary.itemsCount, 'Item'),
      value: summary.itemsCount.toLocaleString(),
      note: 'artifacts and folders',
    },
  ];
}

/**
 * Cold storage monitoring (`/admin/artifactory/services/retention/cold_storage_monitoring`): what
 * the archive holds now and how it grew over the chosen range.
 */
export function ColdStoragePage() {
  const [days, setDays] = useState(30);
  const [now] = useState(() => Date.now());
  const info = useStorageInfo(now - days * DAY_MS, now);
  const history = useMemo(() => info.data?.history ?? [], [info.data]);
  const summary = info.data?.binariesSummary;
  return (
    <>
      <PageHeader
        title="Cold Storage"
        description={
          info.data
            ? `Archived artifacts and their contents in ${info.data.store.type === 's3' ? 'the object store' : 'the folder'} ${info.data.store.location}.`
            : 'Archived artifacts and their contents in the cold store.'
        }
        extra={
          <Segmented aria-label="Range" value={days} options={RANGES} onChange={(value) => setDays(Number(value))} />
        }
      />
      {info.isError ? (
        <LoadError what="The cold storage figures" error={info.error} onRetry={() => void info.refetch()} />
      ) : (
        <>
          <Row gutter={[16, 16]} style={{ marginBottom: 20 }}>
            {(summary ? tiles(summary) : []).map((tile) => (
              <Col key={tile.note} xs={12} md={8} xl={4}>
                <Card size="small" loading={info.isPending} style={{ height: '100%' }}>
                  <Statistic title={tile.title} value={tile.value} />
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {tile.note}
                  </Typography.Text>
                </Card>
              </Col>
            ))}
          </Row>
          <Card title="Archive size over time">
            {!info.isPending && history.length === 0 ? (
              <Empty description="Nothing archived in this range yet. Once a retention policy runs, the archive's size is sampled every day." />
            ) : (
              <div
                style={{ width: '100%', height: 300 }}
                role="img"
                aria-label={`Area chart of the archive per day: ${history
                  .map((p) => `${p.day} ${formatBytes(p.artifactsSize)} of artifacts in ${formatBytes(p.binariesSize)}`)
                  .join(', ')}`}
              >
                <ResponsiveContainer>
                  <AreaChart data={history} margin={{ left: 24, right: 24, top: 8 }}>
                    <CartesianGrid strokeDasharray="3 3" vertical={false} />
                    <XAxis dataKey="day" minTickGap={24} />
                    <YAxis tickFormatter={(v: number) => formatBytes(v)} width={80} />
                    <Tooltip formatter={(v) => formatBytes(Number(v))} />
                    <Legend />
                    <Area
                      type="monotone"
                      dataKey="artifactsSize"
                      name="Artifacts size"
                      stroke="#1f4fd1"
                      fill="#1f4fd1"
                      fillOpacity={0.12}
                    />
                    <Area
                      type="monotone"
                      dataKey="binariesSize"
                      name="Binaries size"
                      stroke="#1d7a46"
                      fill="#1d7a46"
                      fillOpacity={0.18}
                    />
                  </AreaChart>
                </ResponsiveContainer>
              </div>
            )}
          </Card>
        </>
      )}
    </>
  );
}
