#!/bin/bash
# 40 random single-byte changes of models/15puzzle-annd.h5: each must be
# refused or leave predict and nn info output unchanged, never crash
# (scripts/fault_flips.sh; the full run uses 200).
# Arguments: path of heurnet, shared data dir, source dir.
set -u
bash "$3/scripts/fault_flips.sh" -n 40 -s 7 -b "$1" -m "$3/models/15puzzle-annd.h5"
