// Where the browser's package sources keep each file: shared by the app (the R worker's probe) and
// `npm run mirror` (scripts/mirror/), so a mirror is laid out exactly as the engines ask for it.
// Plain JavaScript with its own declarations (layout.d.mts): the mirror runs under bare Node.
// Pure: no I/O, no Node or browser API beyond URL.

/**
 * R's "major.minor" for a version such as "4.6.0": CRAN-like repositories keep one binary tree per
 * minor release, and webR's installer cuts the patch level off getRversion() the same way.
 */
export function rMinorVersion(rVersion) {
  const match = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(rVersion);
  if (!match) throw new Error(`"${rVersion}" is not an R version (major.minor or major.minor.patch)`);
  return `${match[1]}.${match[2]}`;
}

/**
 * The directory of webR binary packages for this R, relative to the repository: the contrib URL
 * webr::install() builds (`<repos>/bin/emscripten/contrib/<major.minor>`), holding PACKAGES and
 * the packages.
 */
export function rContribPath(rVersion) {
  return `bin/emscripten/contrib/${rMinorVersion(rVersion)}/`;
}

/** The contrib directory as an absolute URL (the repository URL with or without its trailing slash). */
export function rContribUrl(repoUrl, rVersion) {
  return new URL(rContribPath(rVersion), repoUrl.endsWith('/') ? repoUrl : `${repoUrl}/`).href;
}

/** The repository's index for this R: the file the R worker asks for at start, and R reads. */
export function rPackagesIndexUrl(repoUrl, rVersion) {
  return new URL('PACKAGES', rContribUrl(repoUrl, rVersion)).href;
}

/**
 * A package's file, relative to the contrib directory: `<Path>/<name>_<version>.tgz`, where Path is
 * the index's optional Path field (available.packages() appends it to the Repository column, which
 * webr::install() downloads from).
 */
export function rPackageFile(name, version, indexPath) {
  const file = `${name}_${version}.tgz`;
  return indexPath ? `${indexPath.replace(/\/+$/, '')}/${file}` : file;
}

/**
 * Where DuckDB-wasm loads an extension from, relative to the extension repository (DuckDB's URL
 * template for wasm builds, `${REVISION}/${PLATFORM}/${NAME}.duckdb_extension` + `.wasm`): the
 * engine's version as getVersion() says it ("v1.4.3") and its platform ("wasm_eh").
 */
export function duckdbExtensionPath(duckdbVersion, platform, name) {
  return `${duckdbVersion}/${platform}/${name}.duckdb_extension.wasm`;
}

/** The same as an absolute URL under a repository given without or with its trailing slash. */
export function duckdbExtensionUrl(repository, duckdbVersion, platform, name) {
  return `${repository.replace(/\/+$/, '')}/${duckdbExtensionPath(duckdbVersion, platform, name)}`;
}
