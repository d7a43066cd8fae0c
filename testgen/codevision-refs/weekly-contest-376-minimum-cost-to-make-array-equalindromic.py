from typing import List


class Solution:
    def minimumCost(self, nums: List[int]) -> int:
        LIMIT = 10 ** 9  # y must be a palindrome below 10^9

        def is_pal(v):
            t = str(v)
            return t == t[::-1]

        vals = sorted(nums)
        median = vals[(len(vals) - 1) // 2]
        # the cost is convex in y and minimal at the median: the best palindrome
        # is the nearest one on either side of it
        candidates = []
        y = median
        while y >= 1 and not is_pal(y):
            y -= 1
        if y >= 1:
            candidates.append(y)
        y = median
        while y < LIMIT and not is_pal(y):
            y += 1
        if y < LIMIT:
            candidates.append(y)
        return min(sum(abs(v - y) for v in vals) for y in candidates)


def valid(nums):
    """The statement's constraints: 1 <= len(nums) <= 10^5, 1 <= nums[i] <= 10^9."""
    return isinstance(nums, list) and 1 <= len(nums) <= 10 ** 5 and all(type(x) is int and 1 <= x <= 10 ** 9 for x in nums)
