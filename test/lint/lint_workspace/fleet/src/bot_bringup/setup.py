# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
from glob import glob
import os

from setuptools import setup

package_name = 'bot_bringup'

setup(
    name=package_name,
    version='0.1.0',
    packages=[],
    data_files=[
        ('share/' + package_name, ['package.xml']),
        (os.path.join('share', package_name, 'launch'), glob('launch/*.launch.py')),
        (os.path.join('share', package_name, 'params'), glob('param/*.yaml')),
    ],
)
