from typing import List


def max_subarray(nums: List[int]) -> int:
    best = current = nums[0]
    i = 1
    while i < len(nums):
        if current + nums[i] > nums[i]:
            current = current + nums[i]
        else:
            current = nums[i]
        best = max(best, current)
        i += 1
    return best
