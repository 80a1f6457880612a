"""How busy this machine is right now, and the model threads that suit it.

On 2 cores shared with other work, two llama.cpp threads wait for each other and generate ~10x slower
than one (eval/RESULTS.md); on an idle machine every core is fastest. Measured from /proc/stat over a
short window, not from the load average, which lags."""
from __future__ import annotations

import os
import time
from pathlib import Path


def busy_cores(window_s: float = 0.3) -> float:
    """Cores kept busy by other processes right now (this one sleeps while it measures)."""
    def sample() -> tuple[int, int]:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        idle = values[3] + (values[4] if len(values) > 4 else 0)
        return sum(values), idle
    total0, idle0 = sample()
    time.sleep(window_s)
    total1, idle1 = sample()
    cores = os.cpu_count() or 1
    return cores * (1 - (idle1 - idle0) / max(total1 - total0, 1))


def threads_for_load(window_s: float = 0.5) -> int:
    """Every core when the others are idle; one when other work keeps a core busy (or /proc is unreadable)."""
    cores = os.cpu_count() or 1
    try:
        return cores if busy_cores(window_s) < 0.5 else 1
    except (OSError, ValueError, IndexError):
        return 1
