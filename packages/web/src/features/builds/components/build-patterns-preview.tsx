import { Alert, Flex, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { useBuildPatternsPreview } from '../api/builds';
import { buildHref } from '../pages/builds-page';

const SHOWN = 12;

/** Which published builds a permission's build patterns cover, as they are typed. */
export function BuildPatternsPreview({ includes, excludes }: { includes: string[]; excludes: string[] }) {
  const preview = useBuildPatternsPreview(includes, excludes, true);
  if (preview.isError) return null;
  const names = preview.data ?? [];
  return (
    <Alert
      type={names.length ? 'info' : 'warning'}
      showIcon
      style={{ marginBottom: 20 }}
      title={
        preview.isPending
          ? 'Looking for the builds these patterns cover…'
          : names.length
            ? `These patterns cover ${names.length} published build${names.length === 1 ? '' : 's'}`
            : 'These patterns cover no published build yet'
      }
      description={
        names.length ? (
          <Flex wrap gap={4} aria-label="Covered builds">
            {names.slice(0, SHOWN).map((name) => (
              <Tag key={name}>
                <Link to={buildHref(name)}>{name}</Link>
              </Tag>
            ))}
            {names.length > SHOWN && (
              <Typography.Text type="secondary">and {names.length - SHOWN} more</Typography.Text>
            )}
          </Flex>
        ) : undefined
      }
    />
  );
}
