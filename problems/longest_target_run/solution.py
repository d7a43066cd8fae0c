from typing import List


def longest_target_run(amounts: List[int], target: int) -> List[int]:
    first_at = {0: 0}
    prefix = 0
    best = []
    for i, amount in enumerate(amounts):
        prefix += amount
        start = first_at.get(prefix - target)
        if start is not None and (not best or i + 1 - start > best[1] - best[0]):
            best = [start, i + 1]
        if prefix not in first_at:
            first_at[prefix] = i + 1
    return best
