# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""ament_python package: the node for `ros2 run`, the `frame-audit` command, launch and config."""
from glob import glob

from setuptools import find_packages, setup

PACKAGE = 'frame_audit'

setup(
    name=PACKAGE,
    version='0.1.0',
    packages=find_packages(include=[PACKAGE, PACKAGE + '.*']),
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + PACKAGE]),
        ('share/' + PACKAGE, ['package.xml']),
        ('share/' + PACKAGE + '/launch', glob('launch/*.launch.py')),
        ('share/' + PACKAGE + '/config', glob('config/*.yaml')),
    ],
    install_requires=['setuptools', 'numpy', 'PyYAML'],
    extras_require={'offline': ['rosbags', 'tqdm', 'graphviz', 'xacro', 'matplotlib']},
    zip_safe=True,
    maintainer='frame_audit developers',
    maintainer_email='frame-audit@example.com',
    description="Audits a car's coordinate frames live and from recordings.",
    license='Apache-2.0',
    python_requires='>=3.10',
    entry_points={
        'console_scripts': [
            'frame_audit_node = frame_audit.ros.executables:node',
            'frame_audit_sim = frame_audit.ros.executables:sim',
            'frame-audit = frame_audit.cli:main',
        ],
    },
)
