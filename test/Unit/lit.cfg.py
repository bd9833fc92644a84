# -*- Python -*-
# Runs the GoogleTest unit tests (build/unittests/*/…Tests) one test each.
import os

import lit.formats

config.name = "MXQ-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.mxq_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
