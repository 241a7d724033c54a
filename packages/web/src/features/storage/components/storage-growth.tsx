import { Card, Empty, Segmented, Typography } from 'antd';
import { useState } from 'react';
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { STORAGE_GROWTH_PERIODS } from '@arca/contracts';
import { formatBytes } from '../../../components/format';
import { LoadError } from '../../../components/load-error';
import { useStorageGrowth } from '../api/get-storage-summary';

const PERIOD_LABELS: Record<number, string> = { 7: 'Week', 30: 'Month', 90: 'Quarter', 365: 'Year' };

/** Used space over the chosen period, from the daily samples: the total, and how much it grew. */
export function StorageGrowthCard() {
  const [days, setDays] = useState<number>(30);
  const growth = useStorageGrowth(days);
  const points = growth.data?.days ?? [];
  const first = points[0];
  const last = points.at(-1);
  const grew = first && last ? last.size - first.size : 0;
  return (
    <Card
      title="Growth"
      style={{ marginBottom: 20 }}
      extra={
        <Segmented
          aria-label="Period"
          value={days}
          options={STORAGE_GROWTH_PERIODS.map((d) => ({ value: d, label: PERIOD_LABELS[d] ?? `${d} days` }))}
          onChange={(value) => setDays(Number(value))}
        />
      }
    >
      {growth.isError ? (
        <LoadError what="The growth of the storage" error={growth.error} onRetry={() => void growth.refetch()} />
      ) : !growth.isPending && points.length === 0 ? (
        <Empty description="No sample yet: the used space is sampled once a day, the first time when Arca starts." />
      ) : (
        <>
          <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
            {points.length < 2
              ? `One sample so far (${first?.day ?? '…'}): the chart fills in day by day.`
              : `${grew >= 0 ? 'Grew' : 'Shrank'} by ${formatBytes(Math.abs(grew))} from ${first!.day} to ${last!.day} (${formatBytes(last!.size)} now, ${last!.files.toLocaleString()} files).`}
          </Typography.Paragraph>
          <div
            style={{ width: '100%', height: 260 }}
            role="img"
            aria-label={`Area chart of used space per day: ${points.map((p) => `${p.day} ${formatBytes(p.size)}`).join(', ')}`}
          >
            <ResponsiveContainer>
              <AreaChart data={points} margin={{ left: 24, right: 24, top: 8 }}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="day" minTickGap={24} />
                <YAxis tickFormatter={(v: number) => formatBytes(v)} width={80} />
                <Tooltip formatter={(v) => formatBytes(Number(v))} />
                <Area
                  type="monotone"
                  dataKey="size"
                  name="Used space"
                  stroke="#1f4fd1"
                  fill="#1f4fd1"
                  fillOpacity={0.15}
                  isAnimationActive={false}
                  dot={points.length < 3}
                />
              </AreaChart>
            </ResponsiveContainer>
          </div>
        </>
      )}
    </Card>
  );
}
