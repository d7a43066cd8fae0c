from typing import List


def maxIncreasingGroups(usageLimits: List[int]) -> int:
    # Greedy on sorted limits: k groups of sizes 1..k are possible iff, taking
    # the limits in increasing order, the running sum of the first i limits can
    # cover the cumulative demand; build groups one by one while the pooled
    # supply reaches the next triangular number.
    groups = 0
    supply = 0
    for u in sorted(usageLimits):
        supply += u
        if supply >= (groups + 1) * (groups + 2) // 2:
            groups += 1
    return groups
