#!/usr/bin/env node
// Pre-test step: the Redis tests (`*.e2e.test.ts` of packages/redis and test/multi-process) start
// Debian's `redis-server` on a free port unless REDIS_URL names a Redis. When neither is there, this
// installs redis-server with apt-get when run as root (as on CI), else prints the one command to run.
import { execFileSync, spawnSync } from 'node:child_process';

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

if (process.env.REDIS_URL || has(process.env.REDIS_SERVER ?? 'redis-server')) process.exit(0);
if (process.getuid?.() === 0 && has('apt-get')) {
  console.log('redis-server is missing: installing it with apt-get (needed by the Redis tests)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'redis-server'], { stdio: 'inherit', env });
  process.exit(0);
}
console.error('The Redis tests need redis-server (or REDIS_URL set to a Redis). Install it with:\n\n  sudo apt-get install -y redis-server\n');
process.exit(1);
