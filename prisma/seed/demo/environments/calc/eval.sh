#!/bin/bash
# Runs the test suite after the worker has applied the patches in /testbed.
cd /testbed
python3 -m pytest -rA -p no:cacheprovider tests
echo "OPENSWE_EXIT_CODE=$?"
