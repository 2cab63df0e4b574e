/** A case-insensitive "contains" pattern for `lower(col) like ? escape '\'`, LIKE wildcards escaped. */
export function likePattern(s: string): string {
  return `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
