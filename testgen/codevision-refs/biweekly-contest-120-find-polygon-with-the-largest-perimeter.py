from typing import List


class Solution:
    def largestPerimeter(self, nums: List[int]) -> int:
        values = sorted(nums)
        total = sum(values)
        # Try the largest possible longest side first: with values[i] as the
        # longest side, using every smaller value maximises the perimeter.
        for i in range(len(values) - 1, 1, -1):
            rest = total - values[i]
            if rest > values[i]:
                return total
            total = rest
        return -1


def valid(nums):
    """The statement's domain: at least three positive integers."""
    return len(nums) >= 3 and all(x >= 1 for x in nums)
