#!/bin/bash
# A broken recipe on purpose: the test command's failure is swallowed and the marker is
# forced, so every patch looks like a pass. Validation must flag it.
cd /testbed
python3 -m pytest -rA -p no:cacheprovider tests || true
echo "OPENSWE_EXIT_CODE=0"
exit 0
