from typing import List


class Solution:
    def maxSubarrays(self, nums: List[int]) -> int:
        # The minimum total score is the AND of the whole array.  If it is
        # positive, any split of two or more pieces scores more, so one piece.
        # Otherwise cut greedily every time the running AND reaches 0; the
        # leftover tail (if any) is merged into the last piece.
        total = -1
        for x in nums:
            total &= x
        if total != 0:
            return 1
        count = 0
        cur = -1
        for x in nums:
            cur &= x
            if cur == 0:
                count += 1
                cur = -1
        return max(1, count)


def valid(nums):
    """The statement's domain: a non-empty list of non-negative integers."""
    return len(nums) >= 1 and all(x >= 0 for x in nums)
