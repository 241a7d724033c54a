import { DEPLOYMENT_STATUS_LABELS, type DeploymentStatus } from '@arca/contracts';
import { StatusTag, type Tone } from '../../../components/status-tag';

export const UNITS = '/admin/mission_control/platform_units';

const TONES: Record<DeploymentStatus, Tone> = {
  ONLINE: 'success',
  PARTIAL: 'warning',
  OFFLINE: 'error',
  UNAUTHORIZED: 'error',
  UNAVAILABLE: 'neutral',
};

export function DeploymentStatusTag({ status }: { status: DeploymentStatus }) {
  return (
    <StatusTag tone={TONES[status]}>{status === 'PARTIAL' ? 'Partial' : DEPLOYMENT_STATUS_LABELS[status]}</StatusTag>
  );
}
