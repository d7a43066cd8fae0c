from typing import List


class Solution:
    def numberOfGoodPartitions(self, nums: List[int]) -> int:
        MOD = 10 ** 9 + 7
        last = {}
        for i, x in enumerate(nums):
            last[x] = i
        # split the array into the smallest blocks that keep equal values together
        blocks = 0
        reach = -1
        for i, x in enumerate(nums):
            if i > reach:
                blocks += 1
            if last[x] > reach:
                reach = last[x]
        # every gap between consecutive blocks may or may not be cut
        return pow(2, blocks - 1, MOD)


def valid(nums):
    """The statement's constraints: 1 <= len(nums) <= 10^5, 1 <= nums[i] <= 10^9."""
    return isinstance(nums, list) and 1 <= len(nums) <= 10 ** 5 and all(type(x) is int and 1 <= x <= 10 ** 9 for x in nums)
