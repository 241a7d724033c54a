/** A sub-application of the demo: mounts a greeting. */
export function mount(): { name: string; render: () => string } {
  return { name: 'Greeting', render: () => 'Hello from the greeting sub-application' };
}
