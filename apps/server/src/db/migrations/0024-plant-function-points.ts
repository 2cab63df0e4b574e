import type { Kysely, Migration } from 'kysely';

/** The plant write function points added to `device_manag` (issue 10, session 26). */
export const PLANT_WRITE_BUTTONS = ['project_add', 'project_edit', 'project_delete'] as const;

/**
 * Issue 10: addPlant, editPlant/editPlantEnergyOffset and delPlant gained function points
 * (`project_add`, `project_edit`, `project_delete`); before, `device_manag` alone allowed them.
 * So that no sub-administrator silently loses a write it had, every stored grant that holds the
 * plant list page (`project_list`, where those writes are offered) receives the three buttons: the
 * function points of custom roles (`custom_roles.functions`) and of accounts (`accounts.permissions`,
 * the copy the dispatcher reads). Administrators untick them in the role editor where unwanted.
 */
export function plantFunctionPoints(): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      const grant = (json: string): string | undefined => {
        let names: unknown;
        try {
          names = JSON.parse(json);
        } catch {
          return undefined;
        }
        if (!Array.isArray(names) || !names.includes('project_list')) return undefined;
        const missing = PLANT_WRITE_BUTTONS.filter((b) => !names.includes(b));
        return missing.length ? JSON.stringify([...(names as string[]), ...missing].sort()) : undefined;
      };
      const roles = (await db
        .selectFrom('custom_roles')
        .select(['id', 'functions'])
        .where('functions', 'like', '%project_list%')
        .execute()) as Array<{ id: number; functions: string }>;
      for (const r of roles) {
        const next = grant(r.functions);
        if (next) await db.updateTable('custom_roles').set({ functions: next }).where('id', '=', r.id).execute();
      }
      const accounts = (await db
        .selectFrom('accounts')
        .select(['id', 'permissions'])
        .where('permissions', 'like', '%project_list%')
        .execute()) as Array<{ id: number; permissions: string }>;
      for (const a of accounts) {
        const next = grant(a.permissions);
        if (next) await db.updateTable('accounts').set({ permissions: next }).where('id', '=', a.id).execute();
      }
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
