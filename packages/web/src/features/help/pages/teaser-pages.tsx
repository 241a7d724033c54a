import { ClusterOutlined, DeploymentUnitOutlined } from '@ant-design/icons';
import { Navigate } from 'react-router';
import { useStartupData } from '../../../lib/startup';
import { ServiceTeaser } from '../components/service-teaser';

/** Pipelines (`/admin/pipelines-teaser`): goes to Pipelines when the service runs. */
export function PipelinesTeaserPage() {
  const { menu } = useStartupData();
  if (menu?.services.pipelines) return <Navigate to="/pipelines" replace />;
  return (
    <ServiceTeaser
      title="Pipelines"
      icon={<DeploymentUnitOutlined />}
      summary="A CI/CD service runs build and release pipelines next to the repositories: it builds on every commit, publishes what it built here, and promotes it from stage to stage."
      brings={[
        'Pipelines as code, triggered by commits, schedules or other pipelines',
        'Build info published with every run',
        'Promotion of builds between repositories, with approvals',
      ]}
      meanwhile={[
        { label: 'Builds', text: 'Build info your CI server publishes, with artifacts and promotions.', to: '/builds' },
        {
          label: 'Webhooks',
          text: 'Trigger your CI server when a package or build arrives.',
          to: '/admin/configuration/webhooks',
        },
        { label: 'Access Tokens', text: 'Scoped, expiring tokens for CI jobs.', to: '/admin/management/access_tokens' },
      ]}
    />
  );
}

/** Peer network (`/admin/pdn-teaser`): goes to its monitoring when the tracker service runs. */
export function PdnTeaserPage() {
  const { menu } = useStartupData();
  if (menu?.services.tracker) return <Navigate to="/admin/monitoring/pdn" replace />;
  return (
    <ServiceTeaser
      title="Private Distribution Network"
      icon={<ClusterOutlined />}
      summary="A peer-to-peer network spreads large downloads across the machines that fetch them: thousands of nodes pulling the same image or release share its pieces instead of all asking the server."
      brings={[
        'Downloads that get faster as more nodes fetch the same release',
        'Less load and traffic on the servers',
        'Usage of the network, top consumers first',
      ]}
      meanwhile={[
        {
          label: 'Storage Summary',
          text: 'What the repositories hold and how it grows.',
          to: '/admin/monitoring/storage-summary',
        },
        {
          label: 'Service Status',
          text: 'Every node and service of this deployment.',
          to: '/admin/monitoring/service-status',
        },
      ]}
    />
  );
}
