from typing import List


class Solution:
    def minimumRightShifts(self, nums: List[int]) -> int:
        n = len(nums)
        # Count the descents around the cycle; a rotation of a sorted array
        # (distinct values) has at most one, located just before the minimum.
        drops = [i for i in range(n - 1) if nums[i] > nums[i + 1]]
        if not drops:
            return 0
        if len(drops) > 1:
            return -1
        i = drops[0]
        if nums[n - 1] > nums[0]:
            return -1
        # The minimum is at i + 1; it must move to index 0.
        return n - (i + 1)

