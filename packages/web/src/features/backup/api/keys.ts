/** The backup page's query keys. */
export const backupKeys = {
  list: ['backups'] as const,
};
