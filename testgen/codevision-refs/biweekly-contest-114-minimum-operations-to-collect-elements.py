from typing import List


class Solution:
    def minOperations(self, nums: List[int], k: int) -> int:
        # Remove from the end until every value 1..k has been collected.
        needed = set(range(1, k + 1))
        ops = 0
        for x in reversed(nums):
            ops += 1
            needed.discard(x)
            if not needed:
                return ops
        return ops if not needed else -1
