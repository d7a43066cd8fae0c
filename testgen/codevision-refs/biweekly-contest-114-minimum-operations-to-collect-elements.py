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


def valid(nums, k):
    """The statement's domain: 1 <= nums[i] <= len(nums), 1 <= k <= len(nums),
    and every value 1..k occurs in nums (so they can be collected)."""
    n = len(nums)
    if n < 1 or not 1 <= k <= n:
        return False
    if any(not 1 <= x <= n for x in nums):
        return False
    return set(range(1, k + 1)) <= set(nums)
