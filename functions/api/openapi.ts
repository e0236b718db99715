/** GET /api/v1/openapi.json — the OpenAPI 3.1 document (built once; it depends only on the schemas). */
import { buildOpenApiDocument } from '../openapi.ts';
import { jsonResponse } from '../respond.ts';

let body: string | undefined;

export async function getOpenApiDocument(): Promise<Response> {
  body ??= JSON.stringify(buildOpenApiDocument());
  return jsonResponse(200, body);
}
