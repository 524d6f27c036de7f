#!/usr/bin/env node
'use strict';
require('../dist/cli.js')
  .main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`cqlint: internal error: ${err && err.stack ? err.stack : err}\n`);
      process.exitCode = 2;
    },
  );
