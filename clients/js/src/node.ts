/** Node only (`signet-client/node`): downloads streamed into a file, written whole or not at
 * all. The main entry stays free of Node's modules, so browsers' bundlers take it as it is. */

import { createWriteStream, promises as fs } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";

import type { Signet } from "./index.js";

async function save(response: Promise<{ data?: unknown }>, file: string): Promise<void> {
  const part = `${file}.part`;
  try {
    const { data } = await response;
    await pipeline(Readable.fromWeb(data as WebReadableStream), createWriteStream(part));
    await fs.rename(part, file);
  } catch (e) {
    await fs.rm(part, { force: true });
    throw e;
  }
}

/** The sealed PDF into `file` (404 until the document is executed). */
export function saveSignedPdf(signet: Signet, documentId: string, file: string): Promise<void> {
  return save(signet.api.GET("/api/v1/documents/{id}/signed.pdf", { params: { path: { id: documentId } }, parseAs: "stream" }), file);
}

/** The audit trail as CSV into `file`. */
export function saveAuditLog(signet: Signet, documentId: string, file: string): Promise<void> {
  return save(signet.api.GET("/api/v1/documents/{id}/audit-log.csv", { params: { path: { id: documentId } }, parseAs: "stream" }), file);
}
