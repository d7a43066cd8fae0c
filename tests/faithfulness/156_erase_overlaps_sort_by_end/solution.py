from typing import List


def erase_overlap_intervals(intervals: List[List[int]]) -> int:
    intervals = sorted(intervals, key=lambda p: p[1])
    removed = 0
    prev_end = float("-inf")
    for start, end in intervals:
        if start >= prev_end:
            prev_end = end
        else:
            removed += 1
    return removed
