from typing import List


class Solution:
    def minOperations(self, nums1: List[int], nums2: List[int]) -> int:
        n = len(nums1)

        def cost(last1, last2):
            ops = 0
            for i in range(n - 1):
                a, b = nums1[i], nums2[i]
                if a <= last1 and b <= last2:
                    continue
                if b <= last1 and a <= last2:
                    ops += 1
                else:
                    return None
            return ops

        best = None
        c = cost(nums1[-1], nums2[-1])
        if c is not None:
            best = c
        c = cost(nums2[-1], nums1[-1])
        if c is not None and (best is None or c + 1 < best):
            best = c + 1
        return -1 if best is None else best


def valid(nums1, nums2):
    """Inputs the statement's definitions apply to: two non-empty integer lists of
    the same length (swaps are index-wise). Longer lists and larger values than
    the constraints (n <= 1000, values <= 10^9) are kept: only the size differs."""
    return (
        isinstance(nums1, list) and isinstance(nums2, list)
        and 1 <= len(nums1) == len(nums2)
        and all(type(x) is int for x in nums1 + nums2)
    )
