from typing import List


class Solution:
    def checkArray(self, nums: List[int], k: int) -> bool:
        # Scan left to right: the leftmost remaining positive value can only be
        # cleared by windows starting exactly there.  Track the decrements in
        # force with a difference array.
        n = len(nums)
        ending = [0] * (n + 1)
        active = 0
        for i in range(n):
            active -= ending[i]
            remaining = nums[i] - active
            if remaining < 0:
                return False
            if remaining > 0:
                if i + k > n:
                    return False
                active += remaining
                ending[i + k] += remaining
        return True


def valid(nums, k):
    """The statement's domain: 1 <= k <= len(nums), nums[i] >= 0."""
    return 1 <= k <= len(nums) and all(x >= 0 for x in nums)
