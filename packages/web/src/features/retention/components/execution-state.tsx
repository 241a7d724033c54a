import { Progress, Space, Typography } from 'antd';
import type { Execution } from '@arca/contracts';
import { StatusTag, type Tone } from '../../../components/status-tag';

/** Spec part 1 §4: each display state's wording and tone. */
const DISPLAY: Record<string, { label: string; tone: Tone }> = {
  RUNNING: { label: 'Running', tone: 'info' },
  RUNNING_WITH_ERRORS: { label: 'Running with errors', tone: 'warning' },
  PENDING: { label: 'Pending', tone: 'neutral' },
  TRIGGERED: { label: 'Triggered', tone: 'neutral' },
  COMPLETE: { label: 'Complete', tone: 'success' },
  COMPLETE_WITH_ERRORS: { label: 'Complete with errors', tone: 'error' },
  STOPPED_BY_USER: { label: 'Stopped by user', tone: 'neutral' },
  STOPPING: { label: 'Stopping', tone: 'warning' },
};

export function ExecutionState({ execution }: { execution: Pick<Execution, 'displayState'> }) {
  const shown = DISPLAY[execution.displayState] ?? { label: execution.displayState, tone: 'neutral' as const };
  return <StatusTag tone={shown.tone}>{shown.label}</StatusTag>;
}

/** How far a run is: a bar while it goes on, the counts once it ended. */
export function ExecutionProgress({ execution }: { execution: Execution }) {
  const settled = execution.done + execution.failed + execution.skipped;
  const percent = execution.total ? Math.floor((settled / execution.total) * 100) : 0;
  const counts = `${execution.done.toLocaleString()} of ${execution.total.toLocaleString()}${
    execution.failed ? `, ${execution.failed.toLocaleString()} failed` : ''
  }${execution.skipped ? `, ${execution.skipped.toLocaleString()} skipped` : ''}`;
  if (execution.endedAt === null)
    return (
      <Space direction="vertical" size={0} style={{ width: 220 }}>
        <Progress
          percent={percent}
          size="small"
          status="active"
          aria-label={`${execution.label} progress`}
          format={() => `${percent}%`}
        />
        <Typography.Text type="secondary">{counts}</Typography.Text>
      </Space>
    );
  return <Typography.Text>{counts}</Typography.Text>;
}
