import type { FastifyInstance } from 'fastify';
import { PLANT_IMAGE_ROUTE, type PlantImages } from './plant-images.js';

/**
 * GET /files/plant/<name>: a stored plant picture or thumbnail (plant-images.ts). The random name
 * is the capability; anything else is 404. Immutable content: cached by browsers for a day.
 */
export function registerPlantImageRoutes(app: FastifyInstance, images: PlantImages): void {
  app.get<{ Params: { name: string } }>(`${PLANT_IMAGE_ROUTE}/:name`, async (request, reply) => {
    const file = await images.read(request.params.name);
    if (!file) return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
    return reply
      .type(file.type)
      .header('Cache-Control', 'private, max-age=86400, immutable')
      .header('X-Content-Type-Options', 'nosniff')
      .send(file.bytes);
  });
}
