#!/usr/bin/env bash
# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
#
# Makes the environment frame_audit runs and tests in on a machine without a ROS install:
# a virtual environment (.venv) with pinned ROS 2 wheels (real rclpy over real Fast DDS),
# the project's Python dependencies, a tf2_msgs stand-in generated from its one-line
# definition, and .venv/env.sh, which gives every process one predictable interpreter.
# Idempotent: when nothing it reads has changed it returns in well under a second.
#
# On a ROS 2 machine (Humble or newer) you do not need this: build with colcon (README).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${FRAME_AUDIT_VENV:-$ROOT/.venv}"
PYTHON="${PYTHON:-python3.11}"
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python3

say() { echo "setup: $*" >&2; }

stamp_of_inputs() {
    cat "$ROOT"/requirements/*.txt "$ROOT"/scripts/setup.sh "$ROOT"/setup.py \
        "$ROOT"/tools/tf2_msgs_standin/package.xml "$ROOT"/tools/tf2_msgs_standin/CMakeLists.txt \
        "$ROOT"/tools/tf2_msgs_standin/msg/TFMessage.msg | sha256sum | cut -d' ' -f1
}

STAMP="$(stamp_of_inputs)"
if [[ -f "$VENV/.setup-stamp" && "$(cat "$VENV/.setup-stamp")" == "$STAMP" ]]; then
    exit 0
fi

# The wheels' .pth hook re-executes Python with LD_LIBRARY_PATH set unless this is set;
# during setup, let it do so (env.sh, written below, sets the paths itself). Nothing of an
# environment already sourced (a venv's env.sh, a ROS install) may leak into the venvs made
# here: Jazzy's must not find Kilted's tf2_msgs and skip its own.
unset _ROS_WHEELS_BOOTSTRAP_COMPLETE PYTHONPATH LD_LIBRARY_PATH AMENT_PREFIX_PATH \
    CMAKE_PREFIX_PATH VIRTUAL_ENV

# make_ros_venv VENV PIP_ARGS...: a venv with ROS 2 wheels, the project, a tf2_msgs stand-in
# where the wheels have none, and VENV/env.sh. Used for Kilted (.venv) and Jazzy (.venv/jazzy).
make_ros_venv() {
    local venv="$1"
    shift
    if [[ ! -x "$venv/bin/python" ]]; then
        "$PYTHON" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' || {
            say "the ROS 2 wheels are built for CPython 3.11; set PYTHON=/path/to/python3.11"
            return 1
        }
        say "creating $venv"
        "$PYTHON" -m venv "$venv"
    fi
    say "installing pinned packages into $venv"
    # This machine's pip configuration names local mirrors that may be absent: keep quiet.
    local pip=("$venv/bin/python" -m pip --disable-pip-version-check --quiet install)
    "${pip[@]}" "$@" 2> >(grep -v "^WARNING: Location '.*' is ignored" >&2) || return 1
    "${pip[@]}" --no-deps --no-build-isolation -e "$ROOT" \
        2> >(grep -v "^WARNING: Location '.*' is ignored" >&2) || return 1
    # setup.cfg installs the executables where `ros2 run` looks (lib/frame_audit): PATH too.
    for exe in "$venv"/lib/frame_audit/*; do ln -sf "$exe" "$venv/bin/$(basename "$exe")"; done

    local site include overlay libs
    site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    include="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
    # Trap 1: the wheels' CMake export files name the Python of the machine that built them.
    { grep -rlZ --include='*.cmake' '/opt/python/cp311-cp311/' "$venv/share" 2>/dev/null \
        || true; } | xargs -0 -r sed -i \
            -e "s#/opt/python/cp311-cp311/include/python3.11#$include#g" \
            -e "s#/opt/python/cp311-cp311/lib/python3.11/site-packages#$site#g"
    overlay="$venv/tf2_msgs_standin"
    libs="$venv/lib"
    for d in "$site"/ros_*.libs; do [[ -d "$d" ]] && libs="$libs:$d"; done
    # Trap 2: CMAKE_PREFIX_PATH and AMENT_PREFIX_PATH must name the venv for the build.
    if "$venv/bin/python" -c 'import tf2_msgs.msg' >/dev/null 2>&1 && [[ ! -d "$overlay" ]]; then
        say "a tf2_msgs is already installed in $venv: no stand-in generated"
    else
        say "generating the tf2_msgs stand-in into $overlay"
        rm -rf "$overlay" "$venv/tf2_msgs_build"
        (
            cd "$venv"
            export CMAKE_PREFIX_PATH="$venv" AMENT_PREFIX_PATH="$venv" PATH="$venv/bin:$PATH"
            export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
            "$venv/bin/colcon" --log-base "$venv/tf2_msgs_build/log" build \
                --base-paths "$ROOT/tools/tf2_msgs_standin" \
                --build-base "$venv/tf2_msgs_build" --install-base "$overlay" --merge-install \
                --cmake-args -DPython3_EXECUTABLE="$venv/bin/python" -DBUILD_TESTING=OFF \
                >"$venv/tf2_msgs_build.log" 2>&1 \
                || { say "tf2_msgs build failed, see $venv/tf2_msgs_build.log"; exit 1; }
        ) || return 1
    fi
    cat >"$venv/env.sh" <<EOF
# Written by scripts/setup.sh: source it to run frame_audit and its tests with the wheels' ROS 2.
export VIRTUAL_ENV="$venv"
export PATH="$venv/bin:\$PATH"
export LD_LIBRARY_PATH="$libs$( [[ -d "$overlay" ]] && echo ":$overlay/lib")\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
export AMENT_PREFIX_PATH="$venv$( [[ -d "$overlay" ]] && echo ":$overlay")"
export PYTHONPATH="$( [[ -d "$overlay" ]] && echo "$overlay/lib/python3.11/site-packages")\${PYTHONPATH:+:\$PYTHONPATH}"
export _ROS_WHEELS_BOOTSTRAP_COMPLETE=1
export RMW_IMPLEMENTATION=rmw_fastrtps_cpp
EOF
}

make_ros_venv "$VENV" -c "$ROOT/requirements/constraints.txt" \
    -r "$ROOT/requirements/ros.txt" -r "$ROOT/requirements/python.txt" \
    -r "$ROOT/requirements/test.txt" || exit 1

# apt_install PACKAGE WHAT MISSING: install a Debian package (sudo where not root), once more
# after an index update; on failure, or without apt, say MISSING (what works less without it).
apt_install() {
    local package="$1" what="$2" missing="$3" sudo=()
    if ! command -v apt-get >/dev/null 2>&1; then
        say "no apt: $missing"
        return 0
    fi
    [[ "$(id -u)" != 0 ]] && sudo=(sudo -n)
    say "installing $package (apt) $what"
    { "${sudo[@]}" apt-get install -y -qq "$package" >/dev/null 2>&1 \
        || { "${sudo[@]}" apt-get update -qq >/dev/null 2>&1 \
             && "${sudo[@]}" apt-get install -y -qq "$package" >/dev/null 2>&1; }; } \
        || say "could not install $package: $missing"
}

# Graphviz draws the tree picture (frame-audit audit --tree FILE.svg|.png).
command -v dot >/dev/null 2>&1 || apt_install graphviz 'for the tree picture' \
    "--tree writes .dot only until 'apt install graphviz'"

# Debian's python3-tf2 (ROS 1 geometry2 0.7.6: tf2's BufferCore in C++, for the system
# Python): the oracle test/engine/test_tf2_oracle.py compares the tf2 model with. Without it
# (no apt, no Debian), that test is skipped, not failed.
/usr/bin/python3 -c 'import tf2_py' >/dev/null 2>&1 || apt_install python3-tf2 \
    "(tf2 itself, as the tf2 model's oracle)" 'the tf2 oracle test will be skipped'

# Humble's Python and numpy, for the engine's tests, where a Python 3.10 is on this machine.
find_python310() {
    if command -v python3.10 >/dev/null 2>&1 && python3.10 -c '' >/dev/null 2>&1; then
        command -v python3.10
        return
    fi
    for candidate in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.10*/bin/python3.10; do
        [[ -x "$candidate" ]] && { echo "$candidate"; return; }
    done
}
PYTHON310="$(find_python310 || true)"
rm -rf "$VENV/humble"
if [[ -n "$PYTHON310" ]]; then
    say "making $VENV/humble: Python 3.10 with numpy 1.21, as on ROS 2 Humble"
    { "$PYTHON310" -m venv "$VENV/humble" \
        && "$VENV/humble/bin/python" -m pip --disable-pip-version-check --quiet install \
            -r "$ROOT/requirements/humble.txt" 2> >(grep -v "^WARNING: Location '.*' is ignored" >&2); } \
        || { say "could not make $VENV/humble: the Humble test will be skipped"; rm -rf "$VENV/humble"; }
fi

# ROS 2 Jazzy's wheels beside Kilted's: the node's and the engine's tests run on both
# (test/ros/test_jazzy.py). Without them (no network), that test is skipped, not failed.
if ! make_ros_venv "$VENV/jazzy" -r "$ROOT/requirements/jazzy.txt"; then
    say "could not make $VENV/jazzy: the Jazzy test will be skipped"
    rm -rf "$VENV/jazzy"
fi

# shellcheck disable=SC1091
source "$VENV/env.sh"
"$VENV/bin/python" -c 'import rclpy, tf2_msgs.msg, diagnostic_msgs.msg, rosbags, frame_audit' \
    || { say "the environment does not import; remove $VENV and run again"; exit 1; }
echo "$STAMP" >"$VENV/.setup-stamp"
say "ready: source $VENV/env.sh"
