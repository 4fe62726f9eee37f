# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""What an audit or a lint found, for people and tools: text, markdown, JSON, the tree picture."""
