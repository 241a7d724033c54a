/** A real SMTP server in this process; `messages` fills as mail arrives. */
export async function startMailServer(): Promise<{
  port: number;
  messages: { to: string[]; raw: string }[];
  close(): Promise<void>;
}> {
  const { SMTPServer } = await import('smtp-server');
  const messages: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return { port, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The first link of a delivered message (quoted-printable soft breaks undone). */
export function linkIn(raw: string): string {
  const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /https?:\/\/\S+/.exec(text);
  if (!match) throw new Error(`no link in message:\n${raw}`);
  return match[0];
}
