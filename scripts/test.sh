#!/usr/bin/env bash
# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
#
# The whole test suite, node tests over real DDS included: sets up the environment first.
# Arguments go to pytest (e.g. scripts/test.sh -k pose_frame).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh"
# shellcheck disable=SC1091
source "${FRAME_AUDIT_VENV:-$ROOT/.venv}/env.sh"
# ROS logs stay out of $HOME.
export ROS_LOG_DIR="${ROS_LOG_DIR:-$(mktemp -d)}"
cd "$ROOT"
exec python -m pytest "$@"
