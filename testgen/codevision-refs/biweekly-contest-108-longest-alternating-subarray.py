from typing import List


class Solution:
    def alternatingSubarray(self, nums: List[int]) -> int:
        n = len(nums)
        best = -1
        for start in range(n - 1):
            if nums[start + 1] != nums[start] + 1:
                continue
            # Extend while the differences keep alternating +1, -1, +1, ...
            length = 2
            j = start + 2
            while j < n and nums[j] == nums[j - 2]:
                length += 1
                j += 1
            best = max(best, length)
        return best


def valid(nums):
    """The statement's domain: at least two positive integers."""
    return len(nums) >= 2 and all(x >= 1 for x in nums)
