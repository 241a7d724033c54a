import yauzl from 'yauzl';

/** Reads a whole zip held in memory, entry by entry, with the entries' bytes when `wanted` asks. */
export function readZip(
  body: Buffer,
  wanted: (name: string, entry: yauzl.Entry) => boolean,
  onEntry: (entry: yauzl.Entry, bytes: Buffer | undefined) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(body, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('unreadable'));
      zip.on('error', reject);
      zip.on('end', () => resolve());
      const fail = (entryError: unknown) => {
        zip.close();
        reject(entryError as Error);
      };
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!wanted(entry.fileName, entry) || entry.fileName.endsWith('/')) {
          try {
            onEntry(entry, undefined);
          } catch (entryError) {
            return fail(entryError);
          }
          zip.readEntry();
          return;
        }
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return fail(streamError ?? new Error('unreadable entry'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            try {
              onEntry(entry, Buffer.concat(chunks));
            } catch (entryError) {
              return fail(entryError);
            }
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
