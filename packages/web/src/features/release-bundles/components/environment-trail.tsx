import { CheckCircleFilled } from '@ant-design/icons';
import { Space, Tooltip } from 'antd';
import type { Environment } from '@arca/contracts';
import { StatusTag } from '../../../components/status-tag';

export interface EnvironmentTrailProps {
  /** Every environment, in order. */
  environments: readonly Environment[];
  /** The environments a version reached, the last one being where it is now. */
  reached: readonly string[];
  size?: 'small' | 'default';
}

/**
 * The environments in their order, each marked reached or not, the current one stressed: how far
 * a release went at a glance. A version promoted to an environment since removed shows it too.
 */
export function EnvironmentTrail({ environments, reached, size = 'default' }: EnvironmentTrailProps) {
  const names = [...environments.map((e) => e.name), ...reached.filter((r) => !environments.some((e) => e.name === r))];
  const current = reached.at(-1);
  if (!names.length) return null;
  return (
    <Space size={size === 'small' ? 2 : 6} wrap aria-label={`Environments reached: ${reached.join(', ') || 'none'}`}>
      {names.map((name) => {
        const done = reached.includes(name);
        return (
          <Tooltip
            key={name}
            title={done ? (name === current ? `Now in ${name}` : `Promoted to ${name}`) : `Not promoted to ${name}`}
          >
            <span>
              <StatusTag
                tone={name === current ? 'success' : done ? 'info' : 'neutral'}
                icon={done ? <CheckCircleFilled aria-hidden /> : undefined}
              >
                {name}
              </StatusTag>
            </span>
          </Tooltip>
        );
      })}
    </Space>
  );
}
