#!/usr/bin/env bash
# checkpatch.pl --strict: 0 errors, 0 warnings, 0 checks on every patch.
. "$(dirname "$0")/lib.sh"
"$SCRIPTS/check-series" --checkpatch
