from typing import List


class Solution:
    def minSum(self, nums1: List[int], nums2: List[int]) -> int:
        z1 = nums1.count(0)
        z2 = nums2.count(0)
        # smallest reachable sums: every zero replaced by 1
        a = sum(nums1) + z1
        b = sum(nums2) + z2
        if z1 == 0 and a < b:
            return -1
        if z2 == 0 and b < a:
            return -1
        return max(a, b)


def valid(nums1, nums2):
    """The statement's constraints: 1 <= lengths <= 10^5, 0 <= values <= 10^6."""
    return all(
        isinstance(a, list) and 1 <= len(a) <= 10 ** 5 and all(type(x) is int and 0 <= x <= 10 ** 6 for x in a)
        for a in (nums1, nums2)
    )
