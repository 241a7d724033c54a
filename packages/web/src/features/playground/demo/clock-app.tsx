/** A sub-application of the demo: mounts the time it was mounted at. */
export function mount(): { name: string; render: () => string } {
  const at = new Date();
  return { name: 'Clock', render: () => `Mounted at ${at.toISOString()}` };
}
