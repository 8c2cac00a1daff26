#!/usr/bin/env node
// The `progresscard` command: runs the built CLI (dist/bin.js). A plain file outside dist/ so npm
// links the command even before the first build (in a clone, `npm ci` builds dist/ on prepare).
import '../dist/bin.js';
