#!/usr/bin/env bash
# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
#
# The demo: a simulated car, healthy and then faulty, audited. Needs no car and no ROS install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh"
# shellcheck disable=SC1091
source "${FRAME_AUDIT_VENV:-$ROOT/.venv}/env.sh"
export ROS_LOG_DIR="${ROS_LOG_DIR:-$(mktemp -d)}"
exec frame-audit demo "$@"
