from typing import List


def max_subarray(nums: List[int]) -> int:
    best = current = nums[0]
    for x in nums[1:]:
        current = current + x if current + x > x else x
        best = max(best, current)
    return best
