/** cargo's publish request: the JSON's and the crate's lengths, 32-bit little-endian, before each. */
export function cargoPublishBody(metadata: Record<string, unknown>, crate: Buffer): Buffer {
  const json = Buffer.from(JSON.stringify(metadata));
  const lengths = [Buffer.alloc(4), Buffer.alloc(4)];
  lengths[0]!.writeUInt32LE(json.length);
  lengths[1]!.writeUInt32LE(crate.length);
  return Buffer.concat([lengths[0]!, json, lengths[1]!, crate]);
}
