import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { packagesKeys } from './keys';

/** A tag as the console shows it (`POST ui/views/dockerv2`). */
export interface ImageView {
  tagInfo: {
    title: string;
    digest: string;
    mediaType: string;
    totalSize: number;
    platforms: string[];
    created?: string;
  };
  config: { digest: string; size: number } | null;
  blobsInfo: { digest: string; shortDigest: string; size: number; mediaType: string; command: string }[];
}

export function useImageView(repoKey: string | undefined, path: string | undefined) {
  return useQuery({
    queryKey: packagesKeys.imageView(repoKey, path),
    enabled: Boolean(repoKey && path),
    queryFn: () =>
      apiFetch<ImageView>('ui/views/dockerv2', { method: 'POST', body: { repoKey, path, view: 'dockerv2' } }),
  });
}
