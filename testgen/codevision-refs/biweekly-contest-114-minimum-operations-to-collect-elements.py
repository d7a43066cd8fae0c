from typing import List


class Solution:
    def minOperations(self, nums: List[int], k: int) -> int:
        # Remove from the end until every value 1..k has been collected.
        if k > len(nums):
            return -1  # fewer elements than values to collect
        seen = set()
        for ops, x in enumerate(reversed(nums), start=1):
            if 1 <= x <= k:
                seen.add(x)
                if len(seen) == k:
                    return ops
        return -1

