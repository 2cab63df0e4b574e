import type { FastifyInstance } from 'fastify';
import { registerImageRoute } from '../../shared/images.js';
import { PLANT_IMAGE_ROUTE, type PlantImages } from './plant-images.js';

/** GET /files/plant/<name>: a stored plant picture or thumbnail (plant-images.ts, shared/images.ts). */
export function registerPlantImageRoutes(app: FastifyInstance, images: PlantImages): void {
  registerImageRoute(app, PLANT_IMAGE_ROUTE, images);
}
