from typing import List


class Solution:
    def maximumSetSize(self, nums1: List[int], nums2: List[int]) -> int:
        n = len(nums1)
        half = n // 2
        s1, s2 = set(nums1), set(nums2)
        common = len(s1 & s2)
        only1 = len(s1) - common
        only2 = len(s2) - common
        # each array keeps half of its elements: first its own distinct values,
        # then the shared ones fill the remaining slots
        take1 = min(only1, half)
        take2 = min(only2, half)
        return min(n, take1 + take2 + common)


def valid(nums1, nums2):
    """Inputs the statement's definitions apply to: two integer lists of the same
    even length n (n / 2 elements are removed from each). Longer lists and larger
    values than the constraints (n <= 2 * 10^4, values <= 10^9) are kept."""
    return (
        isinstance(nums1, list) and isinstance(nums2, list)
        and len(nums1) == len(nums2) and len(nums1) % 2 == 0
        and all(type(x) is int for x in nums1 + nums2)
    )
