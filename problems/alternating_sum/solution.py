from typing import List


def alternating_sum(nums: List[int]) -> int:
    total = 0
    i = 0
    while i < len(nums):
        if i % 2 == 0:
            total += nums[i]
        else:
            total -= nums[i]
        i += 1
    return total
