from bisect import bisect_right
from typing import List


class Solution:
    def incremovableSubarrayCount(self, nums: List[int]) -> int:
        n = len(nums)
        # s: the smallest index such that nums[s:] is strictly increasing.
        s = n - 1
        while s > 0 and nums[s - 1] < nums[s]:
            s -= 1
        count = 0
        # Remove nums[i:j] (i < j); the prefix nums[:i] must be increasing,
        # the suffix nums[j:] increasing (j >= s or j == n) and joinable.
        for i in range(n):
            if i >= 2 and nums[i - 2] >= nums[i - 1]:
                break
            lo = max(i + 1, s)
            if i == 0:
                first = lo
            else:
                # The suffix is increasing, so the joinable j form a tail.
                first = bisect_right(nums, nums[i - 1], lo, n)
            count += n - first + 1  # every j in [first, n - 1] plus j == n
        return count


def valid(nums):
    """The statement's domain: a non-empty list of positive integers."""
    return len(nums) >= 1 and all(x >= 1 for x in nums)
