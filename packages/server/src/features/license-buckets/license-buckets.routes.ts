import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LICENSE_BUCKET_FILE_MAX_BYTES,
  licenseAcquireSchema,
  licenseAttachResultSchema,
  licenseAttachSchema,
  licenseBucketAddSchema,
  licenseBucketSchema,
  licenseBucketStatusSchema,
  licenseSplitSchema,
} from '@arca/contracts';
import {
  addBucket,
  bucketStatus,
  deleteBucket,
  downloadBucket,
  getBucket,
  listBuckets,
  splitBucket,
} from './license-buckets.service.js';
import { acquireLicenses, attachLicenses } from './license-buckets.assign.js';

const admin = { access: 'admin' as const };
const idParams = z.object({ id: z.string().max(100) });

/**
 * The management service's licence buckets (`mc/api/v1/buckets`, spec part 2 §7.7), with the
 * REST API's `deploy` and `acquire` beside the console's `attach`.
 */
export const licenseBucketsRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = '/mc/api/v1/buckets';
  app.get(base, { config: admin, schema: { response: { 200: z.array(licenseBucketSchema) } } }, () =>
    listBuckets(app.db),
  );
  app.post(
    base,
    {
      config: admin,
      // a 13 MB file, as JSON text
      bodyLimit: LICENSE_BUCKET_FILE_MAX_BYTES * 2 + 64 * 1024,
      schema: { body: licenseBucketAddSchema, response: { 201: licenseBucketSchema } },
    },
    async (request, reply) => reply.status(201).send(await addBucket(request, request.body)),
  );
  app.get(
    `${base}/:id`,
    { config: admin, schema: { params: idParams, response: { 200: licenseBucketSchema } } },
    (request) => getBucket(app.db, request.params.id),
  );
  app.delete(`${base}/:id`, { config: admin, schema: { params: idParams } }, async (request, reply) => {
    await deleteBucket(request, request.params.id);
    return reply.status(204).send();
  });
  app.post(
    `${base}/:id/split`,
    { config: admin, schema: { params: idParams, body: licenseSplitSchema, response: { 201: licenseBucketSchema } } },
    async (request, reply) => reply.status(201).send(await splitBucket(request, request.params.id, request.body)),
  );
  app.get(
    `${base}/:id/status`,
    { config: admin, schema: { params: idParams, response: { 200: licenseBucketStatusSchema } } },
    (request) => bucketStatus(app, request.params.id),
  );
  app.post(
    `${base}/:id/attach`,
    {
      config: admin,
      schema: { params: idParams, body: licenseAttachSchema, response: { 200: licenseAttachResultSchema } },
    },
    (request) => attachLicenses(request, request.params.id, request.body),
  );
  // the REST API's single-deployment form
  app.post(
    `${base}/:id/deploy`,
    {
      config: admin,
      schema: {
        params: idParams,
        body: licenseAttachSchema.shape.targets.element,
      },
    },
    async (request, reply) => {
      const [result] = (await attachLicenses(request, request.params.id, { targets: [request.body] })).results;
      return reply
        .status(result?.success ? 200 : 500)
        .send({ success: result?.success ?? false, message: result?.message ?? '' });
    },
  );
  app.post(
    `${base}/:id/acquire`,
    { config: admin, schema: { params: idParams, body: licenseAcquireSchema } },
    (request) => acquireLicenses(request, request.params.id, request.body),
  );
  app.get(`${base}/:id/download`, { config: admin, schema: { params: idParams } }, async (request, reply) => {
    const file = await downloadBucket(app.db, request.params.id);
    return reply
      .type('application/octet-stream')
      .header('content-disposition', `attachment; filename="${file.name}"`)
      .send(Buffer.from(file.content));
  });
};
