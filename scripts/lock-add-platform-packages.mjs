#!/usr/bin/env node
// Maintenance: the npm registry reachable here lacks some other platforms' builds of native
// packages (Next's SWC, Tailwind's oxide, unrs-resolver), so `npm install` leaves them out of
// package-lock.json and `npm ci` then refuses the lock ("Missing: … from lock file"). This adds
// an optional entry for each, with the os/cpu its name states, so npm ci skips it on this
// platform (and installs it, from a registry that has it, on that platform).
// Run after `npm install` changes the lock: node scripts/lock-add-platform-packages.mjs
import fs from 'node:fs';

const OS = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openharmony', 'wasm32'];
const CPU = { arm64: 'arm64', x64: 'x64', arm: 'arm', ia32: 'ia32', loong64: 'loong64', ppc64: 'ppc64', riscv64: 'riscv64', s390x: 's390x', wasi: 'wasm32' };

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpuToken = parts.find((p) => p in CPU);
  const libc = parts.some((p) => p.startsWith('musl')) ? ['musl'] : parts.some((p) => p.startsWith('gnu')) ? ['glibc'] : undefined;
  if (os === 'wasm32') return { cpu: ['wasm32'] };
  return { ...(os ? { os: [os] } : {}), ...(cpuToken ? { cpu: [CPU[cpuToken]] } : {}), ...(libc ? { libc } : {}) };
}

const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const packages = lock.packages;
let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    if (packages[`node_modules/${name}`] || packages[`${location}/node_modules/${name}`]) continue;
    const platform = platformOf(name);
    if (!platform.os && !platform.cpu) continue; // not a platform build: leave it to npm
    packages[`node_modules/${name}`] = { version, ...platform, ...(entry.dev ? { dev: true } : {}), optional: true };
    added += 1;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
fs.writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log(`${added} platform packages added to package-lock.json`);
