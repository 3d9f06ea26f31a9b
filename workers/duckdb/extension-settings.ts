/**
 * How DuckDB is told where its extensions come from (DuckDB's repository or a mirror): the
 * statements the bridge runs at start. Pure, so the mirror's tests run the very same statements in
 * DuckDB-wasm under Node and see which URLs the engine asks a mirror for.
 */
export function extensionSettings(repository: string): string[] {
  return [
    `SET custom_extension_repository = '${repository.replaceAll("'", "''")}'`,
    // Reading a Parquet, JSON or Excel file fetches its extension on first use, from that source.
    'SET autoinstall_known_extensions = true',
    'SET autoload_known_extensions = true',
  ];
}
