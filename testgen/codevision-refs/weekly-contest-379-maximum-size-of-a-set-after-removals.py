from typing import List


class Solution:
    def maximumSetSize(self, nums1: List[int], nums2: List[int]) -> int:
        keep1 = len(nums1) // 2  # n / 2 elements stay in each array
        keep2 = len(nums2) // 2
        s1, s2 = set(nums1), set(nums2)
        common = len(s1 & s2)
        only1 = len(s1) - common
        only2 = len(s2) - common
        # each array keeps half of its elements: first its own distinct values,
        # then the shared ones fill the remaining slots
        take1 = min(only1, keep1)
        take2 = min(only2, keep2)
        return min(keep1 + keep2, take1 + take2 + common)
