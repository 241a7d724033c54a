import { PauseOutlined, CaretRightOutlined, ReloadOutlined, VerticalAlignBottomOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Progress, Segmented, Select, Space, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { LIVE_LOG_DEFAULT_REFRESH_MS, type LogProduct } from '@arca/contracts';
import { ApiError } from '../../../api/client';
import { ErrorList } from '../../../components/error-list';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime } from '../../../components/time';
import { getLogData, useLogConfig } from '../api/logs';

/** The products whose logs Arca writes, by service log key. */
const PRODUCTS: { value: LogProduct; label: string }[] = [
  { value: 'jfrt', label: 'Artifactory (repositories)' },
  { value: 'jfac', label: 'Access (users, tokens, audit)' },
];

/** Lines kept on screen: older ones scroll away. */
const MAX_LINES = 5000;
/** The countdown ring refills in this many steps of this many milliseconds after each refresh (spec part 2 §9). */
const REFILL_STEPS = 50;
const REFILL_STEP_MS = 50;

/** pino's numeric level of a JSON line, if it has one. */
function levelOf(line: string): number | undefined {
  const match = /"level":(\d+)/.exec(line);
  return match ? Number(match[1]) : undefined;
}

const LEVEL_CLASS: [number, string][] = [
  [50, 'arca-log-error'],
  [40, 'arca-log-warn'],
  [30, 'arca-log-info'],
  [0, 'arca-log-debug'],
];

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const SHOWN_APART = new Set(['level', 'time', 'service', 'msg', 'pid', 'hostname']);

/**
 * A JSON log line as people read one: time, level, service, message, then the other fields as
 * `key=value`. A line that is not JSON is shown as it is.
 */
export function formatLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (!entry || typeof entry !== 'object') return line;
  const level = typeof entry.level === 'number' ? (LEVEL_NAMES[entry.level] ?? String(entry.level)) : '';
  const fields = Object.entries(entry)
    .filter(([key]) => !SHOWN_APART.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return [
    String(entry.time ?? ''),
    level.padEnd(5),
    `[${String(entry.service ?? '')}]`,
    String(entry.msg ?? ''),
    ...fields,
  ]
    .filter(Boolean)
    .join(' ');
}

function lineClass(line: string): string {
  const level = levelOf(line);
  if (level === undefined) return 'arca-log-info';
  return LEVEL_CLASS.find(([from]) => level >= from)![1];
}

/**
 * The live log viewer (spec part 1 §2, §4): a product, node and file. Changing any of them is a
 * full reload (the view below starts anew); the configuration failing shows 'No Data Fetched' and
 * stops the refresh.
 */
export function SystemLogsPage() {
  const [product, setProduct] = useState<LogProduct>('jfrt');
  const [nodeId, setNodeId] = useState<string | undefined>(undefined);
  const [file, setFile] = useState<string | undefined>(undefined);
  const config = useLogConfig(product, nodeId);
  const refreshMs = config.data?.refresh_rate_millis || LIVE_LOG_DEFAULT_REFRESH_MS;
  const seconds = Math.max(1, Math.round(refreshMs / 1000));
  const node = nodeId ?? config.data?.nodes[0];
  const shownFile = file && config.data?.logs.includes(file) ? file : config.data?.logs[0];
  const configErrors = config.error instanceof ApiError ? config.error.messages : [];

  return (
    <>
      <PageHeader
        title="System Logs"
        description={
          <>
            The live logs of every node, refreshed every {seconds} seconds. To hand logs to someone helping you, create
            a support bundle in the{' '}
            <Link to="/admin/support-zone" style={{ textDecoration: 'underline' }}>
              Support Zone
            </Link>
            .
          </>
        }
      />
      <Card size="small" style={{ marginBottom: 16 }}>
        <Space wrap size={12}>
          <label className="arca-inline-field">
            <span>Product</span>
            <Select
              aria-label="Product"
              style={{ width: 230 }}
              value={product}
              options={PRODUCTS}
              onChange={(value) => {
                setProduct(value);
                setFile(undefined);
              }}
            />
          </label>
          <label className="arca-inline-field">
            <span>Node</span>
            <Select
              aria-label="Node"
              style={{ width: 240 }}
              value={node}
              loading={config.isPending}
              options={(config.data?.nodes ?? []).map((id) => ({ value: id, label: id }))}
              onChange={(value) => {
                setNodeId(value);
                setFile(undefined);
              }}
            />
          </label>
          <label className="arca-inline-field">
            <span>File</span>
            <Select
              aria-label="File"
              style={{ width: 260 }}
              value={shownFile}
              loading={config.isPending}
              options={(config.data?.logs ?? []).map((name) => ({ value: name, label: name }))}
              onChange={setFile}
            />
          </label>
        </Space>
      </Card>
      {config.isError ? (
        <Card size="small">
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={
              <>
                <Typography.Paragraph strong style={{ marginBottom: 8 }}>
                  No Data Fetched
                </Typography.Paragraph>
                <ErrorList messages={configErrors} />
              </>
            }
          >
            <Button onClick={() => void config.refetch()}>Try again</Button>
          </Empty>
        </Card>
      ) : config.isPending ? (
        <Card size="small" loading />
      ) : !shownFile ? (
        <Card size="small">
          <Empty description="This node has no log files for this product yet." />
        </Card>
      ) : (
        <LogFileView
          key={`${product} ${node ?? ''} ${shownFile}`}
          product={product}
          node={node}
          file={shownFile}
          seconds={seconds}
        />
      )}
    </>
  );
}

/**
 * One file's view: read from offset 0 when it appears, then only what was added since the last
 * size at each refresh (a rotated file starts over); a countdown to the next refresh with pause,
 * resume and refresh now. A failed read shows its notification and pauses.
 */
function LogFileView({
  product,
  node,
  file,
  seconds,
}: {
  product: LogProduct;
  node: string | undefined;
  file: string;
  seconds: number;
}) {
  const [lines, setLines] = useState<string[]>([]);
  const [raw, setRaw] = useState(false);
  const [loading, setLoading] = useState(true);
  const [appending, setAppending] = useState(false);
  const [paused, setPaused] = useState(false);
  const [countdown, setCountdown] = useState(seconds);
  const [refill, setRefill] = useState(REFILL_STEPS);
  const [modified, setModified] = useState<number | undefined>();
  const [updated, setUpdated] = useState<string | undefined>();
  const offset = useRef(0);
  const left = useRef(seconds);
  const reading = useRef(false);
  const viewer = useRef<HTMLPreElement>(null);

  /** Reads what was added since the last size (everything, the first time). */
  const read = useCallback(async () => {
    if (reading.current) return;
    reading.current = true;
    const el = viewer.current;
    const atBottom = !el || el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    try {
      const sent = offset.current;
      const data = await getLogData(product, { nodeId: node, id: file, fileSize: sent });
      // a size below the one sent: the file was rotated and this is its new start
      const restarted = data.file_size < sent;
      offset.current = data.file_size;
      const added = data.log_content ? data.log_content.replace(/\n$/, '').split('\n') : [];
      setLines((current) => (restarted ? added : [...current, ...added]).slice(-MAX_LINES));
      setModified(data.last_update_modified);
      setUpdated(data.last_update_label);
      if (atBottom) requestAnimationFrame(() => viewer.current?.scrollTo({ top: viewer.current.scrollHeight }));
    } catch {
      // the notification says why; loading stops until the administrator resumes
      setPaused(true);
    } finally {
      reading.current = false;
      setLoading(false);
      setAppending(false);
      setRefill(0);
      left.current = seconds;
      setCountdown(seconds);
    }
  }, [product, node, file, seconds]);

  const refresh = useCallback(() => {
    setAppending(true);
    void read();
  }, [read]);

  // the first load, from offset 0
  useEffect(() => {
    void read();
  }, [read]);

  // the countdown ticks each second and refreshes at zero
  useEffect(() => {
    if (paused) return undefined;
    const timer = setInterval(() => {
      left.current -= 1;
      if (left.current <= 0) {
        left.current = seconds;
        refresh();
      }
      setCountdown(left.current);
    }, 1000);
    return () => clearInterval(timer);
  }, [paused, refresh, seconds]);

  // after a refresh, the ring refills in REFILL_STEPS steps
  useEffect(() => {
    if (refill >= REFILL_STEPS) return undefined;
    const timer = setTimeout(() => setRefill((step) => step + 1), REFILL_STEP_MS);
    return () => clearTimeout(timer);
  }, [refill]);

  const ring = refill < REFILL_STEPS ? (refill / REFILL_STEPS) * 100 : (countdown / seconds) * 100;

  return (
    <Card
      size="small"
      title={
        <Space size={8}>
          <span className={appending ? 'arca-live-dot arca-live-dot-blink' : 'arca-live-dot'} aria-hidden />
          <span>{file}</span>
        </Space>
      }
      extra={
        <Space size={12} wrap>
          <Segmented
            size="small"
            aria-label="Line format"
            value={raw ? 'Raw' : 'Formatted'}
            options={['Formatted', 'Raw']}
            onChange={(value) => setRaw(value === 'Raw')}
          />
          <Typography.Text type="secondary">
            Last modified: {modified ? formatDateTime(new Date(modified).toISOString()) : '—'}
          </Typography.Text>
          <Typography.Text type="secondary">Last updated: {updated ? formatDateTime(updated) : '—'}</Typography.Text>
          <Tooltip title={paused ? 'Refresh paused' : `Next refresh in ${countdown} s`}>
            <Progress
              type="circle"
              size={30}
              percent={paused ? 0 : ring}
              format={() => (paused ? '–' : countdown)}
              aria-label={paused ? 'Refresh paused' : `Next refresh in ${countdown} seconds`}
            />
          </Tooltip>
          {paused ? (
            <Button icon={<CaretRightOutlined />} onClick={() => setPaused(false)}>
              Resume
            </Button>
          ) : (
            <Button icon={<PauseOutlined />} onClick={() => setPaused(true)}>
              Pause
            </Button>
          )}
          <Button icon={<ReloadOutlined />} loading={appending} onClick={refresh}>
            Refresh now
          </Button>
          <Tooltip title="Scroll to the newest line">
            <Button
              aria-label="Scroll to the newest line"
              icon={<VerticalAlignBottomOutlined />}
              onClick={() => viewer.current?.scrollTo({ top: viewer.current.scrollHeight })}
            />
          </Tooltip>
        </Space>
      }
    >
      <pre ref={viewer} className="arca-log-view" tabIndex={0} aria-label={`Contents of ${file}`} aria-busy={loading}>
        {loading ? (
          <span className="arca-log-debug">Loading…</span>
        ) : lines.length === 0 ? (
          <span className="arca-log-debug">The file is empty; new lines appear here as they are written.</span>
        ) : (
          lines.map((line, index) => (
            <span key={index} className={lineClass(line)}>
              {raw ? line : formatLine(line)}
              {'\n'}
            </span>
          ))
        )}
      </pre>
    </Card>
  );
}
