"""Freed arrays are kept for the next ones: a run of array-sized allocations stops faulting pages in."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

from hearts_analysis.memory import keep_freed_memory

CHURN = """
import resource, sys
import numpy as np
from hearts_analysis.memory import keep_freed_memory
if sys.argv[1] == "keep":
    assert keep_freed_memory()
def round():   # as a chunk of counting does: several arrays of a few megabytes alive at once, then freed
    arrays = [np.ones(1 << 19) for _ in range(8)]
    del arrays
round()   # the first blocks fault in either way
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):
    round()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def faults(mode: str) -> int:
    done = subprocess.run([sys.executable, "-c", CHURN, mode], capture_output=True, text=True, check=True)
    return int(done.stdout)


GLIBC = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's allocator only")


@GLIBC
def test_kept_blocks_are_reused_without_faulting_their_pages_again():
    assert faults("keep") * 10 < faults("default")


@GLIBC
def test_glibc_is_asked():
    assert keep_freed_memory() is True
