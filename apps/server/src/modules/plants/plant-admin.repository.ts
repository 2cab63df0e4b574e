import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';
import type { DataloggersTable, ProjectsTable } from '../../db/schema-telemetry.js';

export type ProjectInsert = Insertable<ProjectsTable>;
export type ProjectPatch = Updateable<ProjectsTable>;

/** A datalogger row of the plant tree (queryPlantDeviceView). */
export type PlantDataloggerRow = Pick<
  Selectable<DataloggersTable>,
  'id' | 'pn' | 'alias' | 'status' | 'signal' | 'firmware' | 'last_seen_at'
>;

/**
 * Writes of plant management (issue 10) and the few reads they need. Runs in the action's
 * transaction (`currentDb`).
 */
export class PlantAdminRepository {
  constructor(private readonly root: Db) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  /** Which of these picture URLs a plant still shows (as its picture or its thumbnail). */
  async picturesInUse(urls: readonly string[]): Promise<Set<string>> {
    if (urls.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('projects')
      .select(['image', 'image_small'])
      .where((eb) => eb.or([eb('image', 'in', [...urls]), eb('image_small', 'in', [...urls])]))
      .execute();
    const wanted = new Set(urls);
    return new Set(rows.flatMap((r) => [r.image, r.image_small]).filter((u) => wanted.has(u)));
  }

  /** Every picture URL a plant shows (the periodic clean-up keeps these). */
  async allPictures(): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('projects')
      .select(['image', 'image_small'])
      .where((eb) => eb.or([eb('image', '<>', ''), eb('image_small', '<>', '')]))
      .execute();
    return new Set(rows.flatMap((r) => [r.image, r.image_small]).filter((u) => u !== ''));
  }

  async insert(values: ProjectInsert): Promise<number> {
    const row = await this.db.insertInto('projects').values(values).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async update(id: number, patch: ProjectPatch): Promise<void> {
    await this.db.updateTable('projects').set(patch).where('id', '=', id).execute();
  }

  /** Deletes the plant and its viewer assignments (nothing else may still point at it). */
  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('viewer_projects').where('project_id', '=', id).execute();
    await this.db.deleteFrom('projects').where('id', '=', id).execute();
  }

  /** Dataloggers and devices still bound to the plant. */
  async boundCounts(id: number): Promise<{ dataloggers: number; devices: number }> {
    const dl = await this.db
      .selectFrom('dataloggers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', id)
      .executeTakeFirstOrThrow();
    const dv = await this.db
      .selectFrom('devices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', id)
      .executeTakeFirstOrThrow();
    return { dataloggers: Number(dl.n), devices: Number(dv.n) };
  }

  /** The owner's plants, oldest first, with their default flag. */
  async ownerPlants(ownerId: number): Promise<Array<{ id: number; is_default: number }>> {
    const rows = await this.db
      .selectFrom('projects')
      .select(['id', 'is_default'])
      .where('owner_id', '=', ownerId)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ id: Number(r.id), is_default: Number(r.is_default) }));
  }

  /** Makes `id` the owner's only default plant. */
  async makeDefault(ownerId: number, id: number, now: number): Promise<void> {
    await this.db
      .updateTable('projects')
      .set({ is_default: 0, updated_at: now })
      .where('owner_id', '=', ownerId)
      .where('id', '!=', id)
      .where('is_default', '=', 1)
      .execute();
    await this.db.updateTable('projects').set({ is_default: 1, updated_at: now }).where('id', '=', id).execute();
  }

  /** The plant's dataloggers with what the plant tree shows. */
  async dataloggersOf(plantId: number): Promise<PlantDataloggerRow[]> {
    const rows = await this.db
      .selectFrom('dataloggers')
      .select(['id', 'pn', 'alias', 'status', 'signal', 'firmware', 'last_seen_at'])
      .where('project_id', '=', plantId)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ ...r, id: Number(r.id), status: Number(r.status), signal: Number(r.signal) }));
  }

  /** Open alarms of the plant's dataloggers and devices. */
  async openAlarms(plantId: number): Promise<number> {
    const r = await this.db
      .selectFrom('alarms as a')
      .innerJoin('dataloggers as dl', 'dl.id', 'a.datalogger_id')
      .where('dl.project_id', '=', plantId)
      .where('a.ended_at', 'is', null)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
